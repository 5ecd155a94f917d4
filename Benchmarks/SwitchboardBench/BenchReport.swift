import Foundation

/// What `run` measured; printed as tables and written as JSON with the same numbers.
struct BenchReport: Encodable {
    struct ProviderRow: Encodable {
        var id: String
        var onDevice: Bool
        var requests: Int
        var successes: Int
        var failures: Int
        var cancellations: Int
        var fallbacksIn: Int
        var fallbacksOut: Int
        /// nil (JSON null, "-" in the table) when there is nothing to measure.
        var latencyP50Ms: Double?
        var latencyP99Ms: Double?
        var timeToFirstTokenP50Ms: Double?
        var tokensPerSecond: Double?
        var sensitiveReceived: Int

        enum CodingKeys: String, CodingKey {
            case id, requests, successes, failures, cancellations
            case onDevice = "on_device", fallbacksIn = "fallbacks_in", fallbacksOut = "fallbacks_out"
            case latencyP50Ms = "latency_p50_ms", latencyP99Ms = "latency_p99_ms"
            case timeToFirstTokenP50Ms = "ttft_p50_ms", tokensPerSecond = "tokens_per_second"
            case sensitiveReceived = "sensitive_received"
        }
    }

    struct Engine: Encodable {
        var model: String
        var threads: Int
        var promptTokens: Int
        var generatedTokens: Int
        var prefillTokensPerSecond: Double
        var decodeTokensPerSecond: Double
        var loadSeconds: Double

        enum CodingKeys: String, CodingKey {
            case model, threads
            case promptTokens = "prompt_tokens", generatedTokens = "generated_tokens"
            case prefillTokensPerSecond = "prefill_tokens_per_second", decodeTokensPerSecond = "decode_tokens_per_second"
            case loadSeconds = "load_seconds"
        }
    }

    var accepted: Int
    var completed: Int
    var failed: Int
    var cancelled: Int
    var cacheHits: Int
    var sensitiveRequests: Int
    var sensitiveServedOnDevice: Int
    var sensitiveSentRemote: Int
    var providers: [ProviderRow]
    var engines: [Engine]
    var wallSeconds: Double
    var samples: [String]
    /// Why requests failed, with counts (error kinds and providers only, never request text).
    var failureReasons: [String: Int] = [:]
    /// Requests whose answer was continued on another provider after a failure mid-stream.
    var resumed: Int = 0

    enum CodingKeys: String, CodingKey {
        case accepted, completed, failed, cancelled, providers, engines, samples
        case cacheHits = "cache_hits", sensitiveRequests = "sensitive_requests"
        case sensitiveServedOnDevice = "sensitive_served_on_device", sensitiveSentRemote = "sensitive_sent_remote"
        case wallSeconds = "wall_seconds", failureReasons = "failure_reasons", resumed
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// The terminal report: one table row per provider, then privacy, bookkeeping and engine lines.
    func text() -> String {
        var lines: [String] = []
        let header = ["provider", "where", "reqs", "ok", "fail", "cxl", "fb in", "fb out", "p50 ms", "p99 ms", "ttft ms", "tok/s"]
        var rows = [header]
        for p in providers {
            rows.append([p.id, p.onDevice ? "device" : "remote", "\(p.requests)", "\(p.successes)", "\(p.failures)",
                         "\(p.cancellations)", "\(p.fallbacksIn)", "\(p.fallbacksOut)", Self.fixed(p.latencyP50Ms),
                         Self.fixed(p.latencyP99Ms), Self.fixed(p.timeToFirstTokenP50Ms), Self.fixed(p.tokensPerSecond)])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            let cells = row.enumerated().map { column, cell in
                column == 0 || column == 1 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }
            lines.append(cells.joined(separator: "  "))
            if index == 0 { lines.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")) }
        }
        lines.append("")
        lines.append("privacy: sensitive requests served on device: \(sensitiveServedOnDevice) of \(sensitiveRequests); "
                     + "sent to a remote provider: \(sensitiveSentRemote) (counted at the providers)")
        lines.append("bookkeeping: accepted \(accepted) = completed \(completed) + failed \(failed) + cancelled \(cancelled)"
                     + (accepted == completed + failed + cancelled ? "  ✓" : "  ✗ MISMATCH") + "  (cache hits \(cacheHits))")
        if resumed > 0 { lines.append("resumed mid-stream on another provider: \(resumed) (no text repeated or lost)") }
        for (reason, count) in failureReasons.sorted(by: { $0.key < $1.key }) {
            lines.append("failed: \(count) × \(reason)")
        }
        for engine in engines {
            lines.append("engine: \(engine.model), \(engine.threads) threads: "
                         + String(format: "prefill %.0f tok/s (%d-token prompt), decode %.1f tok/s (%d tokens); load %.2f s",
                                  engine.prefillTokensPerSecond, engine.promptTokens, engine.decodeTokensPerSecond,
                                  engine.generatedTokens, engine.loadSeconds))
        }
        for sample in samples { lines.append("sample (on device): \(sample)") }
        lines.append(String(format: "wall time: %.1f s", wallSeconds))
        return lines.joined(separator: "\n")
    }

    static func fixed(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        return value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }
}
