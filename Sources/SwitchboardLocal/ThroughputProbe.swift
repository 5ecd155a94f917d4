import SwitchboardInference

/// The engine's raw speed, measured like the `engine` bench subcommand (shorter): prefill a prompt of
/// `promptTokens` tokens of filler text in one call, then `generatedTokens` greedy single-token decodes.
/// Runs on its own session, on its own `InferenceThread` (not the actors' cooperative pool).
struct ThroughputProbe: Sendable {
    static let filler = "The committee reviewed the proposal in detail, weighing the costs of construction against the "
        + "expected benefits to the town. Several members raised concerns about traffic, noise and the "
        + "timeline, while others argued that the new library would serve students and families for decades. "

    var promptTokens: Int
    var generatedTokens: Int
    var threads: Int

    func run(model: LanguageModel, contextLength: Int) async throws -> EngineThroughput {
        let thread = InferenceThread(name: "switchboard.throughput") {}
        let result = await thread.perform { _ in Result { () throws(InferenceError) in try measure(model, contextLength) } }
        return try (result ?? .failure(.cancelled)).get()
    }

    private func measure(_ model: LanguageModel, _ contextLength: Int) throws(InferenceError) -> EngineThroughput {
        let prompt = max(1, min(promptTokens, contextLength - 1))
        let ids = Array(model.tokenizer.encode(String(repeating: Self.filler, count: prompt / 8 + 2), addBOS: true).prefix(prompt))
        let decodes = max(0, min(generatedTokens, contextLength - ids.count))
        let session = InferenceSession(model: model, contextLength: ids.count + decodes + 1, threads: threads)
        let clock = ContinuousClock()
        let start = clock.now
        var next = Sampler.argmax(UnsafeBufferPointer(try session.prefill(ids)))
        let prefilled = clock.now
        for _ in 0..<decodes { next = Sampler.argmax(UnsafeBufferPointer(try session.decode(next))) }
        return EngineThroughput(promptTokens: ids.count, generatedTokens: decodes, prefill: start.duration(to: prefilled),
                                decode: prefilled.duration(to: clock.now), threads: threads)
    }
}
