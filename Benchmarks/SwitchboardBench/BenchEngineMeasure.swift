import SwitchboardLocal

/// The engine's own speed, measured through the provider's loaded engine after the workload: a
/// 128-token prefill and 64 single-token decodes (a shorter form of the `engine` subcommand).
enum BenchEngineMeasure {
    static func measure(_ provider: LocalModelProvider, threads: Int) async -> BenchReport.Engine? {
        do {
            let throughput = try await provider.measureEngine(promptTokens: 128, generatedTokens: 64)
            return BenchReport.Engine(
                model: provider.configuration.id, threads: throughput.threads, promptTokens: throughput.promptTokens,
                generatedTokens: throughput.generatedTokens, prefillTokensPerSecond: throughput.prefillTokensPerSecond,
                decodeTokensPerSecond: throughput.decodeTokensPerSecond,
                loadSeconds: await provider.statistics.lastLoadDuration?.seconds ?? 0)
        } catch {
            printError("engine measurement failed: \(error)")
            return nil
        }
    }
}
