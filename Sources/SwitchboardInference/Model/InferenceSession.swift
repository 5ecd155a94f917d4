/// One conversation's state over a `LanguageModel`: the KV cache and scratch buffers. Not
/// thread-safe (use it from one thread, as `GenerationLoop` does); reusable via `reset()`.
public final class InferenceSession {
    public let model: LanguageModel
    /// Most tokens this session can hold (prompt + generated).
    public let contextLength: Int
    /// Tokens per prefill batch, as llama.cpp's `n_batch`: results equal llama.cpp's for the same
    /// batches. Computed in slices of at most `sliceSize` rows, which keeps activations in cache.
    public let batchSize: Int
    let sliceSize: Int
    /// Tokens currently in the cache.
    public private(set) var position = 0
    let context: ForwardContext
    let cache: KVCache

    /// - Parameters:
    ///   - contextLength: defaults to the model's; larger values are clamped to it.
    ///   - threads: worker threads for the kernels (default 2).
    ///   - batchSize: tokens per prefill batch (default 512, llama.cpp's: its kernels pick their
    ///     float order by batch size, and the engine follows them batch for batch).
    ///   - reference: the llama.cpp build whose float order to reproduce (default: this machine's).
    public init(model: LanguageModel, contextLength: Int? = nil, threads: Int = 2, batchSize: Int = 512,
                reference: ReferenceBuild = .host) {
        self.model = model
        self.contextLength = max(1, min(contextLength ?? model.contextLength, model.contextLength))
        self.batchSize = max(1, batchSize)
        sliceSize = min(self.batchSize, 64)
        context = ForwardContext(model: model, contextLength: self.contextLength, batch: sliceSize, threads: threads, build: reference)
        cache = KVCache(architecture: model.architecture, contextLength: self.contextLength, batch: sliceSize)
    }

    /// Forgets every cached position.
    public func reset() { position = 0 }

    /// Appends `ids` to the context and returns the logits after the last one. The buffer belongs to
    /// the session and is valid until its next call (samplers may modify it in place).
    public func prefill(_ ids: [Int32]) throws(InferenceError) -> UnsafeMutableBufferPointer<Float> {
        try validate(ids)
        var result = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
        run(ids, logitsForAll: false) { _, logits in result = logits }
        return result
    }

    /// Appends one token and returns the logits for the next position (same lifetime as `prefill`).
    public func decode(_ id: Int32) throws(InferenceError) -> UnsafeMutableBufferPointer<Float> {
        try prefill([id])
    }

    func validate(_ ids: [Int32]) throws(InferenceError) {
        guard !ids.isEmpty else { throw .emptyPrompt }
        let vocabulary = model.vocabularySize
        if let bad = ids.first(where: { $0 < 0 || Int($0) >= vocabulary }) { throw .invalidToken(bad) }
        guard position + ids.count <= contextLength else {
            throw .contextLengthExceeded(limit: contextLength, requested: position + ids.count)
        }
    }

    /// Runs `ids` through the model in batches of `batchSize` (each in slices); `onLogits(index in
    /// ids, logits)` for the last token, or for every token when `logitsForAll`.
    func run(_ ids: [Int32], logitsForAll: Bool, onLogits: (Int, UnsafeMutableBufferPointer<Float>) -> Void) {
        let vocabulary = context.pass.output.rows
        ids.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < ids.count {
                let batch = min(batchSize, ids.count - done)
                var inBatch = 0
                while inBatch < batch {
                    let n = min(sliceSize, batch - inBatch)
                    let isLast = done + n == ids.count
                    let from = logitsForAll ? 0 : (isLast ? n - 1 : n)
                    let offset = done
                    context.forward(tokens: base + done, count: n, batch: batch, cache: cache, start: position, logitsFrom: from) { row, logits in
                        onLogits(offset + row, UnsafeMutableBufferPointer(start: logits, count: vocabulary))
                    }
                    position += n
                    done += n
                    inBatch += n
                }
            }
        }
    }
}
