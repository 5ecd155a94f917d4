/// When to start a second provider beside a slow first one (a hedged request, after "The Tail at
/// Scale"): if the first has produced no token after `delay`, the next eligible provider is called too;
/// the first to produce a token wins and the other is cancelled. Opt-in: `enabled` here, or
/// `GenerationRequest.hedge` per request.
public struct HedgingPolicy: Sendable, Hashable {
    public var enabled: Bool
    /// A fixed delay; nil uses the first provider's p95 time to first token from the metrics, or its
    /// advertised `expectedTimeToFirstToken` until it has been measured.
    public var delay: Duration?
    /// The least delay, so a fast provider's tiny p95 cannot double every call.
    public var minimumDelay: Duration
    /// Hedge calls stay at most this share of requests over `window` (plus `minimumHedges`).
    public var maxExtraCallRatio: Double
    public var minimumHedges: Int
    public var window: Duration

    public init(enabled: Bool = false, delay: Duration? = nil, minimumDelay: Duration = .milliseconds(20),
                maxExtraCallRatio: Double = 0.1, minimumHedges: Int = 1, window: Duration = .seconds(10)) {
        self.enabled = enabled; self.delay = delay; self.minimumDelay = max(.zero, minimumDelay)
        self.maxExtraCallRatio = min(max(maxExtraCallRatio, 0), 1); self.minimumHedges = max(0, minimumHedges)
        self.window = window
    }

    /// How long to wait for the first provider's first token before hedging.
    public func delay(measuredP95: Duration?, expected: Duration) -> Duration {
        let base = delay ?? measuredP95.flatMap { $0 > .zero ? $0 : nil } ?? expected
        return max(base, minimumDelay)
    }

    /// The windowed budget that bounds hedge calls (the same accounting as retries).
    public func makeBudget() -> RetryBudget {
        RetryBudget(ratio: maxExtraCallRatio, minimumRetries: minimumHedges, window: window)
    }
}
