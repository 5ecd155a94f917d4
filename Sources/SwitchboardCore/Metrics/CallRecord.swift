/// One finished provider call, as the coordinator reports it to the metrics.
package struct CallRecord: Sendable, Hashable {
    package enum Outcome: Sendable, Hashable {
        case success
        case failure(ProviderError)
        case cancelled
    }
    package var provider: ProviderID
    package var outcome: Outcome
    /// Call start to last token or error.
    package var latency: Duration
    package var timeToFirstToken: Duration?
    package var completionTokens: Int
    package var queueWait: Duration
    /// This call was a fallback for another provider.
    package var isFallback: Bool

    package init(provider: ProviderID, outcome: Outcome, latency: Duration, timeToFirstToken: Duration? = nil,
                completionTokens: Int = 0, queueWait: Duration = .zero, isFallback: Bool = false) {
        self.provider = provider; self.outcome = outcome; self.latency = latency
        self.timeToFirstToken = timeToFirstToken; self.completionTokens = completionTokens
        self.queueWait = queueWait; self.isFallback = isFallback
    }

    package var isSuccess: Bool { if case .success = outcome { true } else { false } }
    package var isFailure: Bool { if case .failure = outcome { true } else { false } }
    package var isCancelled: Bool { if case .cancelled = outcome { true } else { false } }
}
