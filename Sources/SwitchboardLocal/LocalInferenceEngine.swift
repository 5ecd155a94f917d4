import SwitchboardCore

/// What a loaded engine streams for one generation: text pieces, then one `finished`.
public enum LocalEngineEvent: Sendable, Hashable {
    /// The text of one generated token (may be empty while a multi-byte character is incomplete).
    case token(String)
    case finished(FinishReason, TokenUsage)
}

/// A loaded on-device model, as `LocalModelProvider` uses it. The Gemma engine implements it; tests
/// use a scripted one, so lifecycle and queueing are tested without the 250 MB model.
public protocol LocalInferenceEngine: Sendable {
    /// Context length the engine was loaded with.
    var contextLength: Int { get }
    /// Tokens of `text` without BOS, as `generate` would tokenize it.
    func tokenCount(of text: String, parseSpecial: Bool) -> Int
    /// Generates a reply to `prompt` (BOS is prepended). Ending the iteration or cancelling the consumer's
    /// task stops generation within one token. Errors are `InferenceError`s or `ProviderError`s.
    func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions)
        -> AsyncThrowingStream<LocalEngineEvent, any Error>
    /// Generates JSON following `schema` (constrained decoding), complete within `maxTokens`; with
    /// nil, as `generate(_:maxTokens:sampling:)`. Engines without a constrained decoder throw
    /// `invalidRequest` for a schema.
    func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?)
        -> AsyncThrowingStream<LocalEngineEvent, any Error>
    /// Times a prefill of `promptTokens` tokens and `generatedTokens` single-token decodes (benchmarks).
    func measureThroughput(promptTokens: Int, generatedTokens: Int) async throws -> EngineThroughput
}

extension LocalInferenceEngine {
    public func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?)
        -> AsyncThrowingStream<LocalEngineEvent, any Error> {
        guard schema != nil else { return generate(prompt, maxTokens: maxTokens, sampling: sampling) }
        return AsyncThrowingStream { throw ProviderError.invalidRequest("this on-device engine cannot constrain its output to a schema") }
    }

    public func measureThroughput(promptTokens: Int, generatedTokens: Int) async throws -> EngineThroughput {
        throw ProviderError.unavailable("this engine does not measure its throughput")
    }
}

/// Opens a verified model file. `progress` gets 0...1.
public protocol LocalEngineLoading: Sendable {
    func load(_ file: VerifiedModelFile, progress: @escaping @Sendable (Double) -> Void) async throws
        -> any LocalInferenceEngine
}
