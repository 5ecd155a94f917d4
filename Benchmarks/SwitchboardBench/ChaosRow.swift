import Foundation
import Switchboard
import SwitchboardCore

/// One scenario's figures: the coordinator's bookkeeping, what callers saw, what the servers received.
struct ChaosRow: Sendable {
    var name: String
    var fault: String?
    var rate: Double
    var everyRemoteAlwaysFails: Bool
    var requests: Int
    var accepted: Int
    var completed: Int
    var failed: Int
    var cancelled: Int
    var attempts: Int
    var resumes: Int
    var hedges: Int
    var p50Ms: Double
    var p99Ms: Double
    var servedOnDevice: Int
    var sensitiveRequests: Int
    var sensitiveServedOnDevice: Int
    /// Requests the three servers received, and those carrying sensitive text (must be 0).
    var remoteRequests: Int
    var sensitiveSentRemote: Int
    /// Failed requests by kind.
    var failures: [String: Int]
    var wallSeconds: Double

    init(scenario: ChaosScenario, counts: RequestCounts, outcomes: [ChaosOutcome], remoteRequests: Int,
         sensitiveSentRemote: Int, wallSeconds: Double) {
        name = scenario.name
        fault = scenario.fault?.rawValue
        rate = scenario.rate
        everyRemoteAlwaysFails = scenario.everyRemoteAlwaysFails
        requests = outcomes.count
        accepted = counts.accepted; completed = counts.completed; failed = counts.failed; cancelled = counts.cancelled
        attempts = outcomes.reduce(0) { $0 + $1.attempts }
        resumes = outcomes.reduce(0) { $0 + $1.resumes }
        hedges = outcomes.reduce(0) { $0 + $1.hedges }
        let latencies = outcomes.map(\.milliseconds).sorted()
        p50Ms = Self.percentile(latencies, 50)
        p99Ms = Self.percentile(latencies, 99)
        servedOnDevice = outcomes.filter(\.servedOnDevice).count
        sensitiveRequests = outcomes.filter(\.sensitive).count
        sensitiveServedOnDevice = outcomes.filter { $0.sensitive && $0.servedOnDevice }.count
        self.remoteRequests = remoteRequests
        self.sensitiveSentRemote = sensitiveSentRemote
        var failures: [String: Int] = [:]
        for outcome in outcomes { if let failure = outcome.failure { failures[failure, default: 0] += 1 } }
        self.failures = failures
        self.wallSeconds = wallSeconds
    }

    var successRate: Double { requests == 0 ? 0 : Double(completed) / Double(requests) }
    var balanced: Bool { accepted == completed + failed + cancelled && accepted == requests }
    /// The retry budget's bound on calls when every remote always fails.
    var attemptBound: Int { requests.saturatingMultiply(6) / 5 + 3 }

    /// Nearest-rank percentile of sorted values.
    static func percentile(_ sorted: [Double], _ p: Int) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = (sorted.count * p + 99) / 100
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
