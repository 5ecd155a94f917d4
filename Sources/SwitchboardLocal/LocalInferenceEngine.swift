import SwitchboardCore
import SwitchboardInference

/// A loaded on-device model, as `LocalModelProvider` uses it. `LocalEngine` implements it over the
/// batched generator; tests use a scripted one, so lifecycle and errors are tested without a model.
package protocol LocalInferenceEngine: Sendable {
    /// Context length the engine was loaded with.
    var contextLength: Int { get }
    /// Generations the engine runs at once (its batch size); more wait in the engine's own queue.
    var concurrency: Int { get }
    /// Tokens of `text` without BOS, as `generate` would tokenize it.
    func tokenCount(of text: String, parseSpecial: Bool) -> Int
    /// Generates a reply to `prompt` (BOS is prepended) straight into the caller's `output`: text pieces,
    /// then one `.finished`, never finishing `output` itself. The engine applies the request's stop
    /// sequences, and with a `schema` generates JSON of that shape within `maxTokens` (constrained
    /// decoding; engines without a constrained decoder throw `invalidRequest`). Setting `cancellation`
    /// stops the generation within one token. Returns the usage reported in `.finished`; errors are
    /// `InferenceError`s, `ProviderError`s or `CancellationError`.
    func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?,
                  cancellation: CancellationFlag, into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) async throws
        -> TokenUsage
    /// `generate`, with the prompt's cached keys and values claimed by `owner` (a session; nil: none).
    func generate(_ prompt: BuiltPrompt, owner: UInt64?, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?,
                  cancellation: CancellationFlag, into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) async throws
        -> TokenUsage
    /// Drops the cached prompt keys and values only `owner`'s requests claim (a session's reset).
    func forgetPrefixes(owner: UInt64) async
    /// Times a prefill of `promptTokens` tokens and `generatedTokens` single-token decodes (benchmarks).
    func measureThroughput(promptTokens: Int, generatedTokens: Int) async throws -> EngineThroughput
}

extension LocalInferenceEngine {
    package var concurrency: Int { 1 }

    /// Engines without a prefix cache have nothing to tag.
    package func generate(_ prompt: BuiltPrompt, owner: UInt64?, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?,
                          cancellation: CancellationFlag, into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation)
        async throws -> TokenUsage {
        try await generate(prompt, maxTokens: maxTokens, sampling: sampling, schema: schema, cancellation: cancellation, into: output)
    }

    package func forgetPrefixes(owner: UInt64) async {}

    package func measureThroughput(promptTokens: Int, generatedTokens: Int) async throws -> EngineThroughput {
        throw ProviderError.unavailable("this engine does not measure its throughput")
    }
}

/// Opens a verified model file. `progress` gets 0...1.
package protocol LocalEngineLoading: Sendable {
    /// Generations the loaded engine will run at once, when known before loading (the provider
    /// advertises it as its concurrency).
    var batchSize: Int? { get }
    func load(_ file: VerifiedModelFile, progress: @escaping @Sendable (Double) -> Void) async throws
        -> any LocalInferenceEngine
}

extension LocalEngineLoading {
    package var batchSize: Int? { nil }
}
