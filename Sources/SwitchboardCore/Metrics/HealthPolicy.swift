/// Decides a provider's health from its window statistics and queue figures.
public struct HealthPolicy: Sendable, Hashable {
    /// Below this success rate: degraded.
    public var degradedSuccessRate: Double = 0.9
    /// Below this success rate (over at least `criticalMinimumCalls`): critical.
    public var criticalSuccessRate: Double = 0.5
    public var criticalMinimumCalls: Int = 5
    /// This many failures in a row at the end of the window: critical.
    public var criticalConsecutiveFailures: Int = 5
    /// p95 latency above this multiple of the window's median: degraded.
    public var latencySpreadFactor: Double = 2
    /// The latency check needs at least this many calls, so one slow call cannot flag a fresh provider.
    public var latencyMinimumCalls: Int = 5
    /// Utilization above this: degraded.
    public var maxUtilization: Double = 0.9

    public init() {}

    package func evaluate(_ stats: CallWindow.Statistics, utilization: Double) -> ProviderHealth {
        var critical: [String] = []
        var degraded: [String] = []
        let calls = stats.completedCalls
        let rate = Self.percent(stats.successRate)
        if calls >= criticalMinimumCalls, stats.successRate < criticalSuccessRate {
            critical.append("success rate \(rate) over the last \(calls) calls is below \(Self.percent(criticalSuccessRate))")
        } else if calls > 0, stats.successRate < degradedSuccessRate {
            degraded.append("success rate \(rate) over the last \(calls) calls is below \(Self.percent(degradedSuccessRate))")
        }
        if stats.trailingFailures >= criticalConsecutiveFailures {
            critical.append("the last \(stats.trailingFailures) calls failed")
        }
        let median = stats.latency.p50.seconds, p95 = stats.latency.p95.seconds
        if stats.latency.count >= latencyMinimumCalls, median > 0, p95 > latencySpreadFactor * median {
            degraded.append("p95 latency \(Self.milliseconds(p95)) is more than \(Self.factor(latencySpreadFactor))× the median \(Self.milliseconds(median))")
        }
        if utilization > maxUtilization {
            degraded.append("utilization \(Self.percent(utilization)) is above \(Self.percent(maxUtilization))")
        }
        if !critical.isEmpty { return ProviderHealth(level: .critical, reasons: critical + degraded) }
        if !degraded.isEmpty { return ProviderHealth(level: .degraded, reasons: degraded) }
        return .healthy
    }

    static func percent(_ value: Double) -> String { "\(Int((value * 100).rounded()))%" }
    static func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
    static func factor(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }
}
