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
    /// Generations the engine runs at once (its batch size).
    var concurrency: Int { get }
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

extension LocalEngineLoading {
    public var batchSize: Int? { nil }
}

extension LocalInferenceEngine {
    public var concurrency: Int { 1 }

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
    /// Generations the loaded engine will run at once, when known before loading (the provider
    /// advertises it as its concurrency).
    var batchSize: Int? { get }
    func load(_ file: VerifiedModelFile, progress: @escaping @Sendable (Double) -> Void) async throws
        -> any LocalInferenceEngine
}
