import SwitchboardCore

extension LocalModelProvider {
    /// Measures the loaded engine's prefill and decode speed on a session of its own (benchmarks: run
    /// it while no request generates, or the two share the cores). Loads the model first if needed.
    package func measureEngine(promptTokens: Int = 128, generatedTokens: Int = 64) async throws -> EngineThroughput {
        let engine = try await admit()
        defer { apply(.requestFinished) }
        return try await engine.measureThroughput(promptTokens: promptTokens, generatedTokens: generatedTokens)
    }
}
