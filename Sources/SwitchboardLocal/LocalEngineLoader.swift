import Foundation
import SwitchboardInference

/// Loads a verified GGUF file of any family the engine implements (`SwitchboardInference.LanguageModel`).
package struct LocalEngineLoader: LocalEngineLoading {
    /// Kernel threads per forward pass.
    package var threads: Int
    /// Generations decoded together (continuous batching); nil: chosen from memory
    /// (`defaultBatchSize`). The provider admits this many requests at once.
    package var batchSize: Int?
    /// Keep finished requests' KV caches and start a request that begins with the same tokens (a
    /// conversation's next turn) from there.
    package var reusesPrefixes: Bool
    /// Ceiling on KV cache memory, all generations together (bytes); nil: every batch slot a full
    /// context. Requests that do not fit wait; one larger than the whole budget fails
    /// (`InferenceError.kvBudgetExceeded`, which routing treats as "try another provider").
    package var kvBudgetBytes: Int?
    /// Ceiling on the prefix cache (prompt keys and values shared across requests and sessions, within
    /// `kvBudgetBytes`); nil: one full context; 0: none (`BatchedGenerator`).
    package var prefixCacheBytes: Int?

    package init(threads: Int = 2, batchSize: Int? = nil, reusesPrefixes: Bool = true, kvBudgetBytes: Int? = nil,
                 prefixCacheBytes: Int? = nil) {
        self.prefixCacheBytes = prefixCacheBytes.map { max(0, $0) }
        self.threads = max(1, threads)
        self.batchSize = batchSize.map { max(1, min($0, 64)) }
        self.reusesPrefixes = reusesPrefixes
        self.kvBudgetBytes = kvBudgetBytes.map { max(0, $0) }
    }

    /// As many sequences as an eighth of the device's memory holds in full-context KV caches, 1…8:
    /// 8 on a desktop, 2–3 on a phone. (Caches are allocated lazily; this bounds the worst case.)
    package static func defaultBatchSize(model: LanguageModel, contextLength: Int,
                                        physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory) -> Int {
        let perSequence = UInt64(max(1, BatchedGenerator.kvBytesPerSequence(model: model, contextLength: contextLength)))
        return Int(min(8, max(1, physicalMemory / 8 / perSequence)))
    }

    package func load(_ file: VerifiedModelFile, progress: @escaping @Sendable (Double) -> Void) async throws
        -> any LocalInferenceEngine {
        // Mapping and checking the weights is synchronous CPU work: keep it off the actors' pool.
        let result: Result<LanguageModel, InferenceError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(InferenceError) in
                    try LanguageModel.load(from: file.path, progress: progress)
                })
            }
        }
        let model: LanguageModel
        switch result {
        case .success(let loaded): model = loaded
        case .failure(let error): throw LocalModelError.loadFailed(error.description)
        }
        let context = min(file.contextLength, model.contextLength)
        return LocalEngine(model: model, contextLength: context, threads: threads,
                           batchSize: batchSize ?? Self.defaultBatchSize(model: model, contextLength: context), reusesPrefixes: reusesPrefixes,
                           kvBudgetBytes: kvBudgetBytes, prefixCacheBytes: prefixCacheBytes)
    }
}
