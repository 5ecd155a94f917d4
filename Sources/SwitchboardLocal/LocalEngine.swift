import SwitchboardCore
import SwitchboardInference

/// A loaded model behind `LocalInferenceEngine`, generating through the engine's `LocalGenerator` (one
/// reusable session on the generator's own thread; generations serialized FIFO; cancellation checked
/// before every token).
final class LocalEngine: LocalInferenceEngine {
    let model: LanguageModel
    let generator: LocalGenerator
    let contextLength: Int
    let threads: Int

    init(model: LanguageModel, contextLength: Int, threads: Int) {
        self.model = model; self.contextLength = contextLength; self.threads = threads
        generator = LocalGenerator(model: model, contextLength: contextLength, threads: threads)
    }

    func tokenCount(of text: String, parseSpecial: Bool) -> Int {
        model.tokenizer.encode(text, addBOS: false, parseSpecial: parseSpecial).count
    }

    func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions)
        -> AsyncThrowingStream<LocalEngineEvent, any Error> {
        let ids = model.tokenizer.encode(prompt.text, addBOS: true, parseSpecial: prompt.parseSpecial)
        // The whole generation must fit: the engine would stop at the edge of its window instead.
        let needed = ids.count.saturatingAdd(maxTokens)
        guard needed <= contextLength else {
            let error = ProviderError.contextLengthExceeded(limit: contextLength, requested: needed)
            return AsyncThrowingStream { throw error }
        }
        let options = GenerationOptions(maxTokens: maxTokens, sampler: Self.samplerConfiguration(sampling),
                                        stopSequences: sampling.stopSequences, addBOS: true, parseSpecial: prompt.parseSpecial)
        // Mapped on the generator's inference thread: no forwarding task that a busy cooperative pool
        // could delay, so dropping this stream stops the generation within one token.
        return generator.events(ids: ids, options: options) { event -> LocalEngineEvent? in
            switch event {
            case .token(let token): return .token(token.text)
            case .finished(let summary):
                guard let reason = Self.finishReason(summary.finishReason) else { throw CancellationError() }
                return .finished(reason, TokenUsage(promptTokens: summary.promptTokens, completionTokens: summary.completionTokens))
            }
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

    /// nil for a cancelled generation.
    static func finishReason(_ reason: SwitchboardInference.FinishReason) -> SwitchboardCore.FinishReason? {
        switch reason {
        case .endOfGeneration, .stopSequence: .stop
        case .maxTokens, .contextLength: .length
        case .cancelled: nil
        }
    }
}
