/// Caps retries as a share of recent requests, so a failing provider is not hit by a storm of
/// retries (after Finagle's and Envoy's retry budgets): over the window, retries stay at most
/// `ratio` × requests + `minimumRetries`. The minimum lets a quiet client still retry at all.
public struct RetryBudget: Sendable, Hashable {
    public var ratio: Double
    public var minimumRetries: Int
    /// first: requests, second: retries.
    private var counter: WindowedCounter

    public init(ratio: Double = 0.2, minimumRetries: Int = 3, window: Duration = .seconds(10)) {
        self.ratio = max(0, ratio); self.minimumRetries = max(0, minimumRetries)
        counter = WindowedCounter(window: window)
    }

    public mutating func recordRequest(at now: Duration) { counter.addFirst(at: now) }

    public func canRetry(at now: Duration) -> Bool {
        let (requests, retries) = counter.totals(at: now)
        return Double(retries + 1) <= ratio * Double(requests) + Double(minimumRetries)
    }

    /// Takes one retry from the budget; false (and nothing taken) when it is spent.
    public mutating func withdraw(at now: Duration) -> Bool {
        guard canRetry(at: now) else { return false }
        counter.addSecond(at: now)
        return true
    }

    /// Counts one retry whether or not the budget has room: a resume on another provider adds no
    /// load to the failed one (like a fallback), so it is not refused, but later retries see it.
    public mutating func charge(at now: Duration) {
        counter.addSecond(at: now)
    }

    public func usage(at now: Duration) -> (requests: Int, retries: Int) {
        let t = counter.totals(at: now)
        return (t.first, t.second)
    }
}
