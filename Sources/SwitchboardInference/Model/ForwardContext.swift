/// What every family's forward pass shares in one session: the family's `ForwardPass` (its weights
/// resolved to memory), scratch buffers, the KV cache, the worker pool and the matrix products.
/// Owned by one `InferenceSession`; never shared between threads except inside a pool region.
final class ForwardContext {
    let model: LanguageModel
    let architecture: ModelArchitecture
    let pass: any ForwardPass
    let scratch: ForwardScratch
    let cache: KVCache
    let pool: WorkerPool
    /// Whose float order the build-dependent steps follow (softmax, SiLU, attention dots).
    let build: ReferenceBuild

    init(model: LanguageModel, contextLength: Int, batch: Int, threads: Int, build: ReferenceBuild) {
        self.model = model
        self.build = build
        let a = model.architecture
        architecture = a
        pool = WorkerPool(threads: threads)
        pass = model.family.makePass(file: model.file, architecture: a)
        cache = KVCache(architecture: a, contextLength: contextLength, batch: batch)
        scratch = ForwardScratch(architecture: a, batch: batch, contextLength: contextLength, threads: pool.threads,
                                 vocabulary: pass.output.rows, matrices: pass.matrices)
    }

    /// Runs the family's forward pass (see `ForwardPass.forward`).
    func forward(tokens: UnsafePointer<Int32>, count: Int, batch: Int, start: Int, logitsFrom: Int,
                 onLogits: (Int, UnsafeMutablePointer<Float>) -> Void) {
        pass.forward(self, tokens: tokens, count: count, batch: batch, start: start, logitsFrom: logitsFrom, onLogits: onLogits)
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
            pool.run(chunks: count) { t, _ in q.quantizeRow(t, input + t * columns) }
        }
        let job = MatMulJob(products: (first, second, third), threads: pool.threads, input: input, quantized: quantized, kind: kind, count: count, batch: batch)
        pool.run(chunks: job.totalChunks, job)
    }

    /// One matrix product of `multiply`: W and where its result goes.
    struct Product {
        let matrix: WeightMatrix
        let output: UnsafeMutablePointer<Float>
        init(_ matrix: WeightMatrix, _ output: UnsafeMutablePointer<Float>) { self.matrix = matrix; self.output = output }
    }
}
