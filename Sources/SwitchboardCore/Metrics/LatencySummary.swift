/// Percentiles (nearest rank) and mean of a set of durations.
public struct LatencySummary: Sendable, Hashable {
    public var p50: Duration
    public var p95: Duration
    public var p99: Duration
    public var mean: Duration
    public var count: Int

    public init(p50: Duration = .zero, p95: Duration = .zero, p99: Duration = .zero, mean: Duration = .zero,
                count: Int = 0) {
        self.p50 = p50; self.p95 = p95; self.p99 = p99; self.mean = mean; self.count = count
    }

    public static let empty = LatencySummary()

    /// Summarizes samples given in nanoseconds; sorts `nanoseconds` in place.
    public init(sortingNanoseconds nanoseconds: inout [Int64]) {
        guard !nanoseconds.isEmpty else { self.init(); return }
        nanoseconds.sort()
        var total: Double = 0
        for value in nanoseconds { total += Double(value) }
        self.init(p50: .nanoseconds(Percentile.nearestRank(50, ofSorted: nanoseconds)),
                  p95: .nanoseconds(Percentile.nearestRank(95, ofSorted: nanoseconds)),
                  p99: .nanoseconds(Percentile.nearestRank(99, ofSorted: nanoseconds)),
                  mean: .nanoseconds(Int64((total / Double(nanoseconds.count)).rounded())),
                  count: nanoseconds.count)
    }
}

/// Nearest-rank percentiles: the smallest sample with at least p% of the samples at or below it.
public enum Percentile {
    public static func nearestRank<T>(_ percent: Double, ofSorted sorted: [T]) -> T where T: Comparable & Numeric {
        guard !sorted.isEmpty else { return .zero }
        let p = min(max(percent, 0), 100)
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
