import SwitchboardCore
import SwitchboardInference

/// A loaded model behind `LocalInferenceEngine`, generating through the engine's `LocalGenerator` (one
/// reusable session; generations serialized by that actor; cancellation checked between tokens).
final class GemmaEngine: LocalInferenceEngine {
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
        // At most maxTokens tokens, one more carrying text held back to the end, and `finished`: never dropped.
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: LocalEngineEvent.self, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(max(maxTokens, 1) + 4))
        // The whole generation must fit: the engine would stop at the edge of its window instead.
        guard ids.count + maxTokens <= contextLength else {
            continuation.finish(throwing: ProviderError.contextLengthExceeded(limit: contextLength, requested: ids.count + maxTokens))
            return stream
        }
        let options = GenerationOptions(maxTokens: maxTokens, sampler: Self.samplerConfiguration(sampling),
                                        stopSequences: sampling.stopSequences, addBOS: true, parseSpecial: prompt.parseSpecial)
        let events = generator.events(ids: ids, options: options)
        let task = Task {
            do {
                for try await event in events {
                    switch event {
                    case .token(let token): continuation.yield(.token(token.text))
                    case .finished(let summary):
                        guard let reason = Self.finishReason(summary.finishReason) else {
                            continuation.finish(throwing: CancellationError())
                            return
                        }
                        continuation.yield(.finished(reason, TokenUsage(promptTokens: summary.promptTokens,
                                                                         completionTokens: summary.completionTokens)))
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
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
