import SwitchboardCore

/// The coordinator's view of its providers: each one with its circuit breaker, its latency estimate,
/// its optimizer weight and its last known availability. Owned by (and confined to) the coordinator.
struct ProviderRegistry {
    /// A reference, so per-request updates happen in place. Entries are read and written only inside
    /// the coordinator's `state` lock, which already makes every access exclusive: the runtime's
    /// per-access exclusivity check (about seven per request, 2 % of the route path) is turned off.
    final class Entry {
        let provider: any Provider
        let id: ProviderID
        let capabilities: ProviderCapabilities
        @exclusivity(unchecked) var breaker: CircuitBreaker
        @exclusivity(unchecked) var estimate = LatencyEstimate()
        @exclusivity(unchecked) var weight = 1.0
        @exclusivity(unchecked) var availability: ProviderAvailability = .ready
        @exclusivity(unchecked) var availabilityCheckedAt: Duration?

        init(provider: any Provider, breaker: CircuitBreaker.Configuration) {
            self.provider = provider; id = provider.id; capabilities = provider.capabilities
            self.breaker = CircuitBreaker(configuration: breaker)
        }
    }

    private var table = ProviderTable<Entry>()
    /// Registration order, for stable iteration.
    var entries: [Entry] { table.values }
    /// The oldest availability read over all providers (nil: one was never read), kept so the hot
    /// path checks the refresh interval with one comparison. Refreshed by `availabilityChanged()`.
    private(set) var oldestAvailabilityCheck: Duration? = .nanoseconds(Int64.max)

    var order: [ProviderID] { entries.map(\.id) }

    /// Whether any registered provider is off the device (only then can a request leave it).
    var containsRemote: Bool { entries.contains { !$0.capabilities.isOnDevice } }

    /// Adds `provider`, replacing (and resetting) one registered under the same id.
    mutating func register(_ provider: any Provider, breaker: CircuitBreaker.Configuration) {
        let entry = Entry(provider: provider, breaker: breaker)
        table.set(entry, for: entry.id)
        availabilityChanged()
    }

    mutating func unregister(_ id: ProviderID) {
        guard table.remove(id) else { return }
        availabilityChanged()
    }

    /// Recomputes `oldestAvailabilityCheck` after an entry's check time changed.
    mutating func availabilityChanged() {
        var oldest: Duration? = .nanoseconds(Int64.max)  // no providers: nothing to refresh
        for entry in entries {
            guard let checked = entry.availabilityCheckedAt else { oldest = nil; break }
            if let current = oldest, checked < current { oldest = checked }
        }
        oldestAvailabilityCheck = oldest
    }

    subscript(id: ProviderID) -> Entry? { table[id] }

    /// Every provider as routing sees it at `now` (breakers move open → half-open here).
    func candidates(at now: Duration) -> [ProviderCandidate] {
        var result: [ProviderCandidate] = []
        result.reserveCapacity(entries.count)
        for entry in entries {
            let state = entry.breaker.currentState(at: now)
            result.append(ProviderCandidate(id: entry.id, capabilities: entry.capabilities, availability: entry.availability,
                                            breaker: state, estimate: entry.estimate, weight: entry.weight))
        }
        return result
    }

    /// Providers whose availability was read longer than `interval` ago (or never).
    func staleAvailability(at now: Duration, interval: Duration) -> [Entry] {
        var stale: [Entry] = []
        for entry in entries {
            if let checked = entry.availabilityCheckedAt, now - checked < interval { continue }
            stale.append(entry)
        }
        return stale
    }

    /// Feeds one call's outcome to the provider's breaker and estimate.
    func recordOutcome(_ id: ProviderID, error: ProviderError?, ttft: Duration?, duration: Duration,
                       tokens: Int, at now: Duration) {
        guard let entry = self[id] else { return }
        switch error {
        case nil:
            entry.breaker.recordSuccess(at: now)
            let generation = ttft.map { duration - $0 } ?? duration
            entry.estimate.recordSuccess(timeToFirstToken: ttft, generation: generation, tokens: tokens)
        case let error? where error.countsAgainstProvider:
            entry.breaker.recordFailure(at: now)
            entry.estimate.recordFailure()
            if case .unavailable(let reason) = error {
                entry.availability = .unavailable(reason: reason)
                entry.availabilityCheckedAt = now
            }
        default:
            entry.breaker.recordCancelled()
        }
    }

    func applyWeights(_ weights: [ProviderID: Double]) {
        for (id, weight) in weights { table[id]?.weight = weight }
    }
}
