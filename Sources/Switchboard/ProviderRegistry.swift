import SwitchboardCore

/// The coordinator's view of its providers: each one with its circuit breaker, its latency estimate,
/// its optimizer weight and its last known availability. Owned by (and confined to) the coordinator.
struct ProviderRegistry {
    /// A reference, so per-request updates happen in place.
    final class Entry {
        let provider: any Provider
        let id: ProviderID
        let capabilities: ProviderCapabilities
        var breaker: CircuitBreaker
        var estimate = LatencyEstimate()
        var weight = 1.0
        var availability: ProviderAvailability = .ready
        var availabilityCheckedAt: Duration?

        init(provider: any Provider, breaker: CircuitBreaker.Configuration) {
            self.provider = provider; id = provider.id; capabilities = provider.capabilities
            self.breaker = CircuitBreaker(configuration: breaker)
        }
    }

    private var byID: [ProviderID: Entry] = [:]
    /// Registration order, for stable iteration.
    private(set) var entries: [Entry] = []
    /// The oldest availability read over all providers (nil: one was never read), kept so the hot
    /// path checks the refresh interval with one comparison. Refreshed by `availabilityChanged()`.
    private(set) var oldestAvailabilityCheck: Duration? = .nanoseconds(Int64.max)

    var order: [ProviderID] { entries.map(\.id) }

    /// Adds `provider`, replacing (and resetting) one registered under the same id.
    mutating func register(_ provider: any Provider, breaker: CircuitBreaker.Configuration) {
        let entry = Entry(provider: provider, breaker: breaker)
        if let index = entries.firstIndex(where: { $0.id == entry.id }) { entries[index] = entry } else { entries.append(entry) }
        byID[entry.id] = entry
        availabilityChanged()
    }

    mutating func unregister(_ id: ProviderID) {
        guard byID.removeValue(forKey: id) != nil else { return }
        entries.removeAll { $0.id == id }
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

    subscript(id: ProviderID) -> Entry? { byID[id] }

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
        guard let entry = byID[id] else { return }
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
        for (id, weight) in weights { byID[id]?.weight = weight }
    }
}
