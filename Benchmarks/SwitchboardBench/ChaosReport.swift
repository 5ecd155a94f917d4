import Foundation

/// The chaos table, its checks against the issue's figures, and the JSON object.
struct ChaosReport: Sendable {
    var rows: [ChaosRow]
    var wallSeconds: Double

    struct Check: Sendable {
        var label: String
        var passed: Bool
        var detail: String
    }

    static let header = "scenario                          reqs    ok  fail  cxl  success  attempts  att/req  resumes  hedges   p50 ms   p99 ms  remote  sens→remote"

    static func line(_ row: ChaosRow) -> String {
        let name = row.name.count > 32 ? String(row.name.prefix(31)) + "…" : row.name.padding(toLength: 32, withPad: " ", startingAt: 0)
        return name + String(format: " %5d %5d %5d %4d %7.1f%% %9d %8.2f %8d %7d %8.0f %8.0f %7d %12d",
                             row.requests, row.completed, row.failed, row.cancelled, row.successRate * 100, row.attempts,
                             row.requests == 0 ? 0 : Double(row.attempts) / Double(row.requests), row.resumes, row.hedges,
                             row.p50Ms, row.p99Ms, row.remoteRequests, row.sensitiveSentRemote)
    }

    var totals: (accepted: Int, completed: Int, failed: Int, cancelled: Int) {
        rows.reduce((0, 0, 0, 0)) { ($0.0 + $1.accepted, $0.1 + $1.completed, $0.2 + $1.failed, $0.3 + $1.cancelled) }
    }

    var bookkeepingLine: String {
        let t = totals
        let ok = rows.allSatisfy(\.balanced)
        return "bookkeeping: accepted \(t.accepted) = completed \(t.completed) + failed \(t.failed) + cancelled \(t.cancelled)  "
            + (ok ? "✓ (every row)" : "✗ (rows off: \(rows.filter { !$0.balanced }.map(\.name).joined(separator: ", ")))")
    }

    /// The issue's figures, each checked on the rows it applies to.
    var checks: [Check] {
        var checks: [Check] = []
        for row in rows where row.name.hasPrefix("one remote dead") {
            checks.append(Check(label: "one of three remotes dead: ≥ 99.9% succeed", passed: row.successRate >= 0.999,
                                detail: String(format: "%.2f%% (%d of %d)", row.successRate * 100, row.completed, row.requests)))
        }
        for row in rows where row.name.hasPrefix("all remotes dead") {
            checks.append(Check(label: "every remote dead: every request served on device", passed: row.servedOnDevice == row.requests,
                                detail: "\(row.servedOnDevice) of \(row.requests)"))
        }
        let always = rows.filter(\.everyRemoteAlwaysFails)
        let over = always.filter { $0.attempts > $0.attemptBound }
        checks.append(Check(label: "100% failure: attempts ≤ 1.2 × requests + 3", passed: over.isEmpty,
                            detail: over.isEmpty ? "\(always.count) rows"
                                : over.map { "\($0.name): \($0.attempts) > \($0.attemptBound)" }.joined(separator: "; ")))
        checks.append(Check(label: "accepted = completed + failed + cancelled in every row", passed: rows.allSatisfy(\.balanced),
                            detail: "\(rows.count) rows"))
        let leaked = rows.reduce(0) { $0 + $1.sensitiveSentRemote }
        let sensitive = rows.reduce(0) { $0 + $1.sensitiveRequests }
        let onDevice = rows.reduce(0) { $0 + $1.sensitiveServedOnDevice }
        checks.append(Check(label: "0 sensitive requests reach a server (counted by the servers)", passed: leaked == 0,
                            detail: "\(leaked) received; \(onDevice) of \(sensitive) sensitive requests served on device"))
        return checks
    }

    func text() -> String {
        var out = [Self.header] + rows.map(Self.line)
        out.append("")
        out.append(bookkeepingLine)
        for check in checks { out.append("\(check.passed ? "✓" : "✗") \(check.label): \(check.detail)") }
        var reasons: [String: Int] = [:]
        for row in rows { for (reason, n) in row.failures { reasons[reason, default: 0] += n } }
        for (reason, n) in reasons.sorted(by: { $0.value > $1.value }) { out.append("failed: \(n) × \(reason)") }
        out.append(String(format: "wall time: %.1f s", wallSeconds))
        return out.joined(separator: "\n")
    }

    func json() -> String {
        let scenarios: [[String: Any]] = rows.map { row in
            [
                "name": row.name, "fault": row.fault ?? "none", "rate": row.rate, "requests": row.requests,
                "accepted": row.accepted, "completed": row.completed, "failed": row.failed, "cancelled": row.cancelled,
                "success_rate": Self.rounded(row.successRate, 4), "attempts": row.attempts, "resumes": row.resumes,
                "hedges": row.hedges, "p50_ms": Self.rounded(row.p50Ms, 1), "p99_ms": Self.rounded(row.p99Ms, 1),
                "sensitive_sent_remote": row.sensitiveSentRemote, "remote_requests": row.remoteRequests,
                "served_on_device": row.servedOnDevice, "failures": row.failures,
            ]
        }
        let t = totals
        let object: [String: Any] = [
            "scenarios": scenarios,
            "bookkeeping": ["accepted": t.accepted, "completed": t.completed, "failed": t.failed, "cancelled": t.cancelled,
                            "balanced": rows.allSatisfy(\.balanced)],
            "checks": checks.map { ["check": $0.label, "passed": $0.passed, "detail": $0.detail] as [String: Any] },
            "wall_seconds": Self.rounded(wallSeconds, 1),
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = Double([1, 10, 100, 1000, 10_000][min(max(places, 0), 4)])
        return (value * scale).rounded() / scale
    }
}
