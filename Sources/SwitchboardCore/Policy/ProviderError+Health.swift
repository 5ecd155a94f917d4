extension ProviderError {
    /// Whether this failure says something about the provider's health (and so counts for its circuit
    /// breaker and error rate). A refused or malformed request, a cancellation or an oversized prompt
    /// is the request's problem, not the provider's.
    public var countsAgainstProvider: Bool {
        switch self {
        case .timeout, .tokenTimeout, .callTimeout, .transport, .server, .rateLimited, .malformedResponse,
             .responseTooLarge, .unavailable, .authentication, .unknownModel, .budgetExceeded:
            true
        case .invalidRequest, .contentPolicy, .contextLengthExceeded, .cancelled:
            false
        }
    }
}
