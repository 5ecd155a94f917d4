import SwitchboardCore
import SwitchboardInference

/// A loaded model behind `LocalInferenceEngine`, generating through the engine's `BatchedGenerator`:
/// up to `concurrency` generations decoded together on its own thread, more waiting in arrival
/// order in the batch loop (the local path's only admission queue), cancellation checked before
/// every step.
final class LocalEngine: LocalInferenceEngine {
    let model: LanguageModel
    let generator: BatchedGenerator
    let contextLength: Int
    let threads: Int
    var concurrency: Int { generator.capacity }

    init(model: LanguageModel, contextLength: Int, threads: Int, batchSize: Int, reusesPrefixes: Bool, kvBudgetBytes: Int? = nil,
         prefixCacheBytes: Int? = nil) {
        self.model = model; self.contextLength = contextLength; self.threads = threads
        generator = BatchedGenerator(model: model, capacity: batchSize, contextLength: contextLength, threads: threads,
                                     reusePrefixes: reusesPrefixes, kvBudgetBytes: kvBudgetBytes, prefixCacheBytes: prefixCacheBytes)
    }

    func tokenCount(of text: String, parseSpecial: Bool) -> Int {
        model.tokenizer.encode(text, addBOS: false, parseSpecial: parseSpecial).count
    }

    func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?,
                  cancellation: CancellationFlag, into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) async throws
        -> TokenUsage {
        try await generate(prompt, owner: nil, maxTokens: maxTokens, sampling: sampling, schema: schema, cancellation: cancellation, into: output)
    }

    func forgetPrefixes(owner: UInt64) async { await generator.forgetPrefixes(owner: owner) }

    func generate(_ prompt: BuiltPrompt, owner: UInt64?, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?,
                  cancellation: CancellationFlag, into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) async throws
        -> TokenUsage {
        var constraint: JSONConstraint?
        if let base = try schema?.constraint() {
            constraint = prompt.answerPrefix.map { base.continuing(after: $0) } ?? base
        }
        let ids = model.tokenizer.encode(prompt.segments, addBOS: true)
        // The whole generation must fit: the engine would stop at the edge of its window instead.
        let needed = ids.count.saturatingAdd(maxTokens)
        guard needed <= contextLength else { throw ProviderError.contextLengthExceeded(limit: contextLength, requested: needed) }
        // A stop sequence would cut a JSON answer short: structured requests end with their document.
        let options = GenerationOptions(maxTokens: maxTokens, sampler: Self.samplerConfiguration(sampling),
                                        stopSequences: constraint == nil ? sampling.stopSequences : [], addBOS: true,
                                        parseSpecial: prompt.parseSpecial, constraint: constraint)
        // The one mapping of the local path, run on the batch thread: engine events become the caller's
        // `ProviderEvent`s there, with no forwarding task or second buffer, so a busy cooperative pool
        // delays neither the tokens nor a cancellation.
        return try await withCheckedThrowingContinuation { (done: CheckedContinuation<TokenUsage, any Error>) in
            generator.submit(ids: ids, options: options, owner: owner, cancellation: cancellation, emit: { event in
                switch event {
                case .token(let token):
                    if !token.text.isEmpty { output.yield(.token(token.text)) }
                case .finished(let summary):
                    guard let reason = Self.finishReason(summary.finishReason) else { return done.resume(throwing: CancellationError()) }
                    let usage = TokenUsage(promptTokens: summary.promptTokens, completionTokens: summary.completionTokens,
                                           cachedPromptTokens: summary.reusedPromptTokens)
                    output.yield(.finished(reason, usage))
                    done.resume(returning: usage)
                }
            }, fail: { done.resume(throwing: $0) })
        }
    }

    func measureThroughput(promptTokens: Int, generatedTokens: Int) async throws -> EngineThroughput {
        let probe = ThroughputProbe(promptTokens: promptTokens, generatedTokens: generatedTokens, threads: threads)
        return try await probe.run(model: model, contextLength: contextLength)
    }

    /// Request sampling → engine sampler: temperature 0 is greedy; absent filters are off.
    static func samplerConfiguration(_ sampling: SamplingOptions) -> SamplerConfiguration {
        guard sampling.temperature > 0 else { return .greedy }
        return SamplerConfiguration(
            temperature: Float(sampling.temperature), topK: sampling.topK ?? 0, topP: Float(sampling.topP ?? 1),
            minP: Float(sampling.minP ?? 0), repetitionPenalty: Float(sampling.repetitionPenalty ?? 1),
            seed: sampling.seed ?? 0)
    }

    /// The engine's reason in Core's terms (see `SwitchboardInference.FinishReason` for why there are
    /// two); nil for a cancelled generation.
    static func finishReason(_ reason: SwitchboardInference.FinishReason) -> SwitchboardCore.FinishReason? {
        switch reason {
        case .endOfGeneration, .stopSequence: .stop
        case .maxTokens, .contextLength: .length
        case .cancelled: nil
        }
    }
}
