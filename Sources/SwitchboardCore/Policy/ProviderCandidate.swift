/// What routing knows about one registered provider at decision time: a value, so the policies that
/// read it stay plain functions.
package struct ProviderCandidate: Sendable, Hashable {
    package var id: ProviderID
    package var capabilities: ProviderCapabilities
    package var availability: ProviderAvailability
    /// The provider's circuit breaker, as of now.
    package var breaker: CircuitBreaker.State
    /// Observed performance, when there is any.
    package var estimate: LatencyEstimate
    /// The optimizer's multiplier on this provider's score (1 = neutral).
    package var weight: Double

    package init(id: ProviderID, capabilities: ProviderCapabilities, availability: ProviderAvailability = .ready,
                breaker: CircuitBreaker.State = .closed, estimate: LatencyEstimate = LatencyEstimate(),
                weight: Double = 1) {
        self.id = id; self.capabilities = capabilities; self.availability = availability
        self.breaker = breaker; self.estimate = estimate; self.weight = weight
    }
}

extension RequestAnalysis {
    /// Tokens the provider must hold: the estimated prompt plus the requested output.
    package func contextNeeded(maxTokens: Int) -> Int {
        let (sum, overflow) = estimatedPromptTokens.addingReportingOverflow(max(0, maxTokens))
        return overflow ? Int.max : sum
    }
}
