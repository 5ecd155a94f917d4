import SwitchboardCore

extension LocalModelProvider {
    /// Measures the loaded engine's prefill and decode speed, taking the generation slot like a request
    /// (so it never overlaps a generation). Loads the model first if needed.
    public func measureEngine(promptTokens: Int = 128, generatedTokens: Int = 64) async throws -> EngineThroughput {
        let engine = try await admit()
        let result: Result<EngineThroughput, any Error>
        do {
            try await acquireSlot(limit: 1)
            do { result = .success(try await engine.measureThroughput(promptTokens: promptTokens, generatedTokens: generatedTokens)) }
            catch { result = .failure(error) }
            releaseSlot()
        } catch {
            result = .failure(error)
        }
        apply(.requestFinished)
        return try result.get()
    }
}
