import Foundation
import SwitchboardCore

/// The JSON form of a metrics snapshot: snake_case keys, sorted, durations in milliseconds.
struct MetricsExport: Encodable {
    struct Latency: Encodable {
        var p50Ms, p95Ms, p99Ms, meanMs: Double
        var count: Int
        enum CodingKeys: String, CodingKey {
            case p50Ms = "p50_ms", p95Ms = "p95_ms", p99Ms = "p99_ms", meanMs = "mean_ms", count
        }
        init(_ summary: LatencySummary) {
            p50Ms = summary.p50.milliseconds; p95Ms = summary.p95.milliseconds
            p99Ms = summary.p99.milliseconds; meanMs = summary.mean.milliseconds; count = summary.count
        }
    }
    struct Health: Encodable {
        var level: String
        var reasons: [String]
    }
    struct Provider: Encodable {
        var requests, successes, failures, cancellations, fallbacksIn, fallbacksOut: Int
        var successRate: Double
        var latency: Latency
        var timeToFirstToken: Latency
        var tokensPerSecond: Double
        var queueLength, inFlight, capacity: Int
        var utilization: Double
        var health: Health
        enum CodingKeys: String, CodingKey {
            case requests, successes, failures, cancellations, fallbacksIn = "fallbacks_in", fallbacksOut = "fallbacks_out"
            case successRate = "success_rate", latency, timeToFirstToken = "time_to_first_token"
            case tokensPerSecond = "tokens_per_second", queueLength = "queue_length", inFlight = "in_flight"
            case capacity, utilization, health
        }
        init(_ m: ProviderMetrics) {
            requests = m.requests; successes = m.successes; failures = m.failures; cancellations = m.cancellations
            fallbacksIn = m.fallbacksIn; fallbacksOut = m.fallbacksOut; successRate = m.successRate.finiteOrZero
            latency = Latency(m.latency); timeToFirstToken = Latency(m.timeToFirstToken)
            tokensPerSecond = m.tokensPerSecond.finiteOrZero; queueLength = m.queueLength; inFlight = m.inFlight
            capacity = m.capacity; utilization = m.utilization.finiteOrZero
            health = Health(level: m.health.level.description, reasons: m.health.reasons)
        }
    }
    var takenAtMs: Double
    var providers: [String: Provider]
    enum CodingKeys: String, CodingKey { case takenAtMs = "taken_at_ms", providers }

    init(_ snapshot: MetricsSnapshot) {
        takenAtMs = snapshot.takenAt.milliseconds
        var providers: [String: Provider] = [:]
        for (id, metrics) in snapshot.providers { providers[id.rawValue] = Provider(metrics) }
        self.providers = providers
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension Duration {
    fileprivate var milliseconds: Double { (seconds * 1000).finiteOrZero }
}

extension Double {
    fileprivate var finiteOrZero: Double { isFinite ? self : 0 }
}
