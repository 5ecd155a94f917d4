import SwitchboardCore

/// Everything about routing an app may tune. The defaults suit an app with one on-device model and a
/// few remote providers.
public struct SwitchboardConfiguration: Sendable {
    public var privacy: PrivacyPolicy
    public var scoring: ScoringPolicy
    public var retry: RetryPolicy
    public var retryBudget: RetryBudget
    public var breaker: CircuitBreaker.Configuration
    public var queue: QueuePolicy
    /// Slots per provider until the optimizer adapts them.
    public var defaultConcurrency: Int
    /// Overrides of `defaultConcurrency` by provider.
    public var concurrency: [ProviderID: Int]
    public var optimizer: OptimizerModel.Configuration
    /// Serve identical public (and, if the cache is told so, personal) requests from the cache.
    public var cacheEnabled: Bool
    /// How long a read of the device's state or a provider's availability is reused.
    public var stateRefreshInterval: Duration
    /// Seed for retry jitter.
    public var seed: UInt64
    /// A fixed latency budget for requests that set none; when nil, `defaultDeadline` sets one.
    public var defaultLatencyBudget: Duration?
    /// The whole-request deadline of a request with no latency budget (neither its own nor
    /// `defaultLatencyBudget`), scaled by its `maxTokens`: 30 s + 0.1 s per token, at most 600 s, by
    /// default. nil lets such a request wait on a slow or hung provider until the caller cancels it.
    public var defaultDeadline: RequestDeadline?
    /// Times one streamed answer may be continued on another provider (or the same one, after a
    /// backoff) when its provider fails after tokens reached the caller; each also takes one retry
    /// from `retryBudget`. 0 makes such a failure final (`failedMidStream`).
    public var maxResumes: Int
    /// Hedged requests: off unless enabled here or per request (`GenerationRequest.hedge`).
    public var hedging: HedgingPolicy
    /// The on-device semantic second opinion: every request the recognizers would let leave the device is
    /// scored first, and kept home when the classifier says private. Nil: recognizers alone.
    public var privacyClassifier: (any PrivacyClassifier)?

    public init(privacy: PrivacyPolicy = PrivacyPolicy(), scoring: ScoringPolicy = ScoringPolicy(),
                retry: RetryPolicy = RetryPolicy(), retryBudget: RetryBudget = RetryBudget(),
                breaker: CircuitBreaker.Configuration = .init(), queue: QueuePolicy = QueuePolicy(),
                defaultConcurrency: Int = 4, concurrency: [ProviderID: Int] = [:],
                optimizer: OptimizerModel.Configuration = .init(), cacheEnabled: Bool = true,
                stateRefreshInterval: Duration = .seconds(1), seed: UInt64 = 0x5EED,
                defaultLatencyBudget: Duration? = nil, defaultDeadline: RequestDeadline? = RequestDeadline(),
                maxResumes: Int = 2, hedging: HedgingPolicy = HedgingPolicy(), privacyClassifier: (any PrivacyClassifier)? = nil) {
        self.privacy = privacy; self.scoring = scoring; self.retry = retry; self.retryBudget = retryBudget
        self.breaker = breaker; self.queue = queue; self.defaultConcurrency = max(1, defaultConcurrency)
        self.concurrency = concurrency; self.optimizer = optimizer; self.cacheEnabled = cacheEnabled
        self.stateRefreshInterval = stateRefreshInterval; self.seed = seed
        self.defaultLatencyBudget = defaultLatencyBudget; self.defaultDeadline = defaultDeadline
        self.maxResumes = max(0, maxResumes)
        self.hedging = hedging
        self.privacyClassifier = privacyClassifier
    }
}
