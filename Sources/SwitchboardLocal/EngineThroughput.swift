import SwitchboardCore
import SwitchboardInference

/// The engine's raw speed on one prompt: prefill (prompt tokens per second) and decode (generated
/// tokens per second, one at a time).
public struct EngineThroughput: Sendable, Hashable {
    public var promptTokens: Int
    public var generatedTokens: Int
    public var prefill: Duration
    public var decode: Duration
    public var threads: Int

    public init(promptTokens: Int, generatedTokens: Int, prefill: Duration, decode: Duration, threads: Int) {
        self.promptTokens = promptTokens; self.generatedTokens = generatedTokens
        self.prefill = prefill; self.decode = decode; self.threads = threads
    }

    public var prefillTokensPerSecond: Double { Double(promptTokens) / max(prefill.seconds, 1e-9) }
    public var decodeTokensPerSecond: Double { Double(generatedTokens) / max(decode.seconds, 1e-9) }
}

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

extension LocalModelProvider {
    /// Measures the loaded engine's prefill and decode speed on a session of its own (benchmarks: run
    /// it while no request generates, or the two share the cores). Loads the model first if needed.
    package func measureEngine(promptTokens: Int = 128, generatedTokens: Int = 64) async throws -> EngineThroughput {
        let engine = try await admit()
        defer { apply(.requestFinished) }
        return try await engine.measureThroughput(promptTokens: promptTokens, generatedTokens: generatedTokens)
    }
}
