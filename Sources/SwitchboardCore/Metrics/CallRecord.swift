/// One finished provider call, as the coordinator reports it to the metrics.
public struct CallRecord: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        case success
        case failure(ProviderError)
        case cancelled
    }
    public var provider: ProviderID
    public var outcome: Outcome
    /// Call start to last token or error.
    public var latency: Duration
    public var timeToFirstToken: Duration?
    public var completionTokens: Int
    public var queueWait: Duration
    /// This call was a fallback for another provider.
    public var isFallback: Bool

    public init(provider: ProviderID, outcome: Outcome, latency: Duration, timeToFirstToken: Duration? = nil,
                completionTokens: Int = 0, queueWait: Duration = .zero, isFallback: Bool = false) {
        self.provider = provider; self.outcome = outcome; self.latency = latency
        self.timeToFirstToken = timeToFirstToken; self.completionTokens = completionTokens
        self.queueWait = queueWait; self.isFallback = isFallback
    }

    public var isSuccess: Bool { if case .success = outcome { true } else { false } }
    public var isFailure: Bool { if case .failure = outcome { true } else { false } }
    public var isCancelled: Bool { if case .cancelled = outcome { true } else { false } }
}
