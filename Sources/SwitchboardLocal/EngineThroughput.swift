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
