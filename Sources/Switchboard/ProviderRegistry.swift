import SwitchboardCore

/// The coordinator's view of its providers: each one with its circuit breaker, its latency estimate,
/// its optimizer weight and its last known availability. A value owned by the coordinator actor.
struct ProviderRegistry {
    struct Entry {
        let provider: any Provider
        let capabilities: ProviderCapabilities
        var breaker: CircuitBreaker
        var estimate = LatencyEstimate()
        var weight = 1.0
        var availability: ProviderAvailability = .ready
        var availabilityCheckedAt: Duration?
    }

    private(set) var entries: [ProviderID: Entry] = [:]
    /// Registration order, for stable iteration.
    private(set) var order: [ProviderID] = []

    /// Adds `provider`, replacing (and resetting) one registered under the same id.
    mutating func register(_ provider: any Provider, breaker: CircuitBreaker.Configuration) {
        let id = provider.id
        if entries[id] == nil { order.append(id) }
        entries[id] = Entry(provider: provider, capabilities: provider.capabilities,
                            breaker: CircuitBreaker(configuration: breaker))
    }

    mutating func unregister(_ id: ProviderID) {
        guard entries.removeValue(forKey: id) != nil else { return }
        order.removeAll { $0 == id }
    }

    subscript(id: ProviderID) -> Entry? { entries[id] }

    /// Every provider as routing sees it at `now` (breakers move open → half-open here).
    mutating func candidates(at now: Duration) -> [ProviderCandidate] {
        var result: [ProviderCandidate] = []
        result.reserveCapacity(order.count)
        for id in order {
            guard let state = entries[id]?.breaker.currentState(at: now), let entry = entries[id] else { continue }
            result.append(ProviderCandidate(id: id, capabilities: entry.capabilities, availability: entry.availability,
                                            breaker: state, estimate: entry.estimate, weight: entry.weight))
        }
        return result
    }

    /// Providers whose availability was read longer than `interval` ago (or never).
    func staleAvailability(at now: Duration, interval: Duration) -> [(ProviderID, any Provider)] {
        order.compactMap { id in
            guard let entry = entries[id] else { return nil }
            if let checked = entry.availabilityCheckedAt, now - checked < interval { return nil }
            return (id, entry.provider)
        }
    }

    mutating func setAvailability(_ availability: ProviderAvailability, for id: ProviderID, at now: Duration) {
        entries[id]?.availability = availability
        entries[id]?.availabilityCheckedAt = now
    }

    mutating func admit(_ id: ProviderID, at now: Duration) -> CircuitBreaker.Admission {
        entries[id]?.breaker.admit(at: now) ?? .rejected
    }

    /// Feeds one call's outcome to the provider's breaker and estimate.
    mutating func recordOutcome(_ id: ProviderID, error: ProviderError?, ttft: Duration?, duration: Duration,
                                tokens: Int, at now: Duration) {
        guard entries[id] != nil else { return }
        switch error {
        case nil:
            entries[id]?.breaker.recordSuccess(at: now)
            let generation = ttft.map { duration - $0 } ?? duration
            entries[id]?.estimate.recordSuccess(timeToFirstToken: ttft, generation: generation, tokens: tokens)
        case let error? where error.countsAgainstProvider:
            entries[id]?.breaker.recordFailure(at: now)
            entries[id]?.estimate.recordFailure()
            if case .unavailable(let reason) = error { setAvailability(.unavailable(reason: reason), for: id, at: now) }
        default:
            entries[id]?.breaker.recordCancelled()
        }
    }

    mutating func releaseProbe(_ id: ProviderID) { entries[id]?.breaker.recordCancelled() }

    mutating func applyWeights(_ weights: [ProviderID: Double]) {
        for (id, weight) in weights { entries[id]?.weight = weight }
    }
}
