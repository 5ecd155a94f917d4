/// Where one row of a forward batch belongs: its sequence's KV cache and position.
struct BatchRow {
    let cache: KVCache
    let position: Int
}

/// What every family's forward pass shares in one session: the family's `ForwardPass` (its weights
/// resolved to memory), scratch buffers, the worker pool and the matrix products, and the layout of
/// the current batch's rows. Owned by one session; never shared between threads except inside a
/// pool region.
final class ForwardContext {
    let model: LanguageModel
    let architecture: ModelArchitecture
    let pass: any ForwardPass
    let scratch: ForwardScratch
    let pool: WorkerPool
    /// The current forward's rows (set by the session before each `forward`; capacity reserved).
    private(set) var rows: [BatchRow] = []
    /// The rows are one-token steps of separate sequences (a batched decode): each is computed as
    /// llama.cpp computes a batch of one, so batching never changes a sequence's numbers.
    private(set) var rowsAreSequences = false
    /// Whose float order the build-dependent steps follow (softmax, SiLU, attention dots).
    let build: ReferenceBuild

    init(model: LanguageModel, contextLength: Int, batch: Int, threads: Int, build: ReferenceBuild) {
        self.model = model
        self.build = build
        let a = model.architecture
        architecture = a
        pool = WorkerPool(threads: threads)
        pass = model.family.makePass(file: model.file, architecture: a)
        rows.reserveCapacity(batch)
        scratch = ForwardScratch(architecture: a, batch: batch, contextLength: contextLength, threads: pool.threads,
                                 vocabulary: pass.output.rows, matrices: pass.matrices)
    }

    /// Runs `count` consecutive positions of one sequence from `start` in `cache` (see `ForwardPass.forward`).
    func forward(tokens: UnsafePointer<Int32>, count: Int, batch: Int, cache: KVCache, start: Int, logitsFrom: Int,
                 onLogits: (Int, UnsafeMutablePointer<Float>) -> Void) {
        rows.removeAll(keepingCapacity: true)
        for t in 0..<count { rows.append(BatchRow(cache: cache, position: start + t)) }
        rowsAreSequences = false
        pass.forward(self, tokens: tokens, count: count, batch: batch, logitsFrom: logitsFrom, onLogits: onLogits)
    }

    /// Runs one token of each sequence in `rows` (a batched decode step); logits for every row.
    func forward(tokens: UnsafePointer<Int32>, rows batchRows: some Collection<BatchRow>,
                 onLogits: (Int, UnsafeMutablePointer<Float>) -> Void) {
        rows.removeAll(keepingCapacity: true)
        rows.append(contentsOf: batchRows)
        rowsAreSequences = true
        pass.forward(self, tokens: tokens, count: rows.count, batch: 1, logitsFrom: 0, onLogits: onLogits)
    }

    /// out_j = W_j · input for each product given (up to three sharing one input: q/k/v, gate/up),
    /// with one quantization of `input` (`count` rows of W.columns floats, part of a `batch`-row
    /// llama.cpp batch); outputs have row stride W.rows. Rows are split across the workers.
    /// Called about a hundred times per token: nothing here allocates (`MatMulJob`).
    func multiply(_ first: Product, _ second: Product? = nil, _ third: Product? = nil, input: UnsafePointer<Float>, count: Int, batch: Int? = nil) {
        let columns = first.matrix.columns
        let kind = first.matrix.format.activationKind
        let quantized = kind.flatMap { scratch.activations(kind: $0, columns: columns) }
        if let q = quantized {
            pool.run(chunks: count) { t, _ in q.quantizeRow(t, input + t * columns, of: count) }
        }
        let job = MatMulJob(products: (first, second, third), threads: pool.threads, input: input, quantized: quantized, kind: kind, count: count,
                            batch: rowsAreSequences ? 1 : batch)
        pool.run(chunks: job.totalChunks, job)
    }

    /// One matrix product of `multiply`: W and where its result goes.
    struct Product {
        let matrix: WeightMatrix
        let output: UnsafeMutablePointer<Float>
        init(_ matrix: WeightMatrix, _ output: UnsafeMutablePointer<Float>) { self.matrix = matrix; self.output = output }
    }
}
