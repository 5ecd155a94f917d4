import Dispatch
import Synchronization
import SwitchboardCore
import SwitchboardInference

/// A loaded model behind `LocalInferenceEngine`: one reusable `InferenceSession` (its KV cache is
/// allocated once), driven on a serial Dispatch queue so forward passes never block the actors' pool.
/// Generations run one at a time; the provider already serializes them.
final class GemmaEngine: LocalInferenceEngine {
    let model: LanguageModel
    let contextLength: Int
    let threads: Int
    let batchSize: Int
    private let queue = DispatchQueue(label: "switchboard.local.engine", qos: .userInitiated)
    /// Created on first use, reused by every later generation (only touched on `queue`).
    private let session = Mutex<InferenceSession?>(nil)

    init(model: LanguageModel, contextLength: Int, threads: Int, batchSize: Int) {
        self.model = model; self.contextLength = contextLength; self.threads = threads; self.batchSize = batchSize
    }

    func tokenCount(of text: String, parseSpecial: Bool) -> Int {
        model.tokenizer.encode(text, addBOS: false, parseSpecial: parseSpecial).count
    }

    func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions)
        -> AsyncThrowingStream<LocalEngineEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: LocalEngineEvent.self, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(max(maxTokens, 0) + 4))
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.raise() }
        let job = GenerationJob(prompt: prompt, maxTokens: maxTokens, sampling: Self.samplerConfiguration(sampling))
        queue.async { [self] in
            withSession { session in job.run(on: session, tokenizer: model.tokenizer, batchSize: batchSize, stop: stop, into: continuation) }
        }
        return stream
    }

    func measureThroughput(promptTokens: Int, generatedTokens: Int) async throws -> EngineThroughput {
        let measured: Result<EngineThroughput, InferenceError> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                let result = withSession { session in
                    ThroughputProbe(promptTokens: promptTokens, generatedTokens: generatedTokens, threads: threads)
                        .run(on: session, tokenizer: model.tokenizer)
                }
                continuation.resume(returning: result)
            }
        }
        return try measured.get()
    }

    /// Runs `body` with the session (made on first use). Only called on `queue`.
    private func withSession<R: Sendable>(_ body: (InferenceSession) -> R) -> R {
        session.withLock { slot in
            let current = slot ?? InferenceSession(model: model, contextLength: contextLength, threads: threads, batchSize: batchSize)
            slot = current
            return body(current)
        }
    }

    /// Request sampling → engine sampler: temperature 0 is greedy; absent filters are off.
    static func samplerConfiguration(_ sampling: SamplingOptions) -> SamplerConfiguration {
        guard sampling.temperature > 0 else { return .greedy }
        return SamplerConfiguration(
            temperature: Float(sampling.temperature), topK: sampling.topK ?? 0, topP: Float(sampling.topP ?? 1),
            minP: Float(sampling.minP ?? 0), repetitionPenalty: Float(sampling.repetitionPenalty ?? 1),
            seed: sampling.seed ?? 0)
    }
}

/// Set when the consumer stops listening; the generation loop checks it before every forward pass.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
