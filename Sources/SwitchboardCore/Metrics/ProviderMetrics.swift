/// One provider's figures: lifetime counters plus sliding-window statistics.
public struct ProviderMetrics: Sendable, Hashable {
    public var provider: ProviderID
    /// Lifetime totals.
    public var requests: Int
    public var successes: Int
    public var failures: Int
    public var cancellations: Int
    /// Calls of this provider that were fallbacks for another one.
    public var fallbacksIn: Int
    /// Failed calls of this provider that were followed by another provider.
    public var fallbacksOut: Int
    /// Over the sliding window (cancellations excluded); 1 when there is no call yet.
    public var successRate: Double
    public var latency: LatencySummary
    public var timeToFirstToken: LatencySummary
    /// Median over the window of completion tokens / (latency - time to first token).
    public var tokensPerSecond: Double
    public var queueLength: Int
    public var inFlight: Int
    public var capacity: Int
    /// inFlight / capacity (0 when the capacity is unknown).
    public var utilization: Double
    public var health: ProviderHealth
    /// Hedge calls sent to this provider, and how many of them produced the answer.
    public var hedgesStarted: Int
    public var hedgesWon: Int
    /// Calls of this provider cancelled because the other side of a hedge won.
    public var hedgesCancelled: Int

    public init(provider: ProviderID, requests: Int = 0, successes: Int = 0, failures: Int = 0, cancellations: Int = 0,
                fallbacksIn: Int = 0, fallbacksOut: Int = 0, successRate: Double = 1, latency: LatencySummary = .empty,
                timeToFirstToken: LatencySummary = .empty, tokensPerSecond: Double = 0, queueLength: Int = 0,
                inFlight: Int = 0, capacity: Int = 0, utilization: Double = 0, health: ProviderHealth = .healthy,
                hedgesStarted: Int = 0, hedgesWon: Int = 0, hedgesCancelled: Int = 0) {
        self.provider = provider; self.requests = requests; self.successes = successes; self.failures = failures
        self.cancellations = cancellations; self.fallbacksIn = fallbacksIn; self.fallbacksOut = fallbacksOut
        self.successRate = successRate; self.latency = latency; self.timeToFirstToken = timeToFirstToken
        self.tokensPerSecond = tokensPerSecond; self.queueLength = queueLength; self.inFlight = inFlight
        self.capacity = capacity; self.utilization = utilization; self.health = health
        self.hedgesStarted = hedgesStarted; self.hedgesWon = hedgesWon; self.hedgesCancelled = hedgesCancelled
    }
}

/// Every provider's metrics at one moment.
public struct MetricsSnapshot: Sendable, Hashable {
    public var providers: [ProviderID: ProviderMetrics]
    /// Time on the metrics' clock when this was taken.
    public var takenAt: Duration
    public init(providers: [ProviderID: ProviderMetrics] = [:], takenAt: Duration = .zero) {
        self.providers = providers; self.takenAt = takenAt
    }
}
