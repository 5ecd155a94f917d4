/// Everything one forward pass touches, resolved to raw memory: weight matrices inside the mapped
/// file (kept alive by `model`), norm vectors, scratch buffers, the KV cache and the worker pool.
/// Owned by one `InferenceSession`; never shared between threads except inside a pool region.
final class ForwardContext {
    struct Layer {
        let attnNorm, qNorm, kNorm, postAttentionNorm, ffnNorm, postFFNNorm: UnsafePointer<Float>
        let q, k, v, output, gate, up, down: WeightMatrix
    }

    struct Weights {
        let embedding: WeightMatrix
        let output: WeightMatrix
        let outputNorm: UnsafePointer<Float>
        let layers: [Layer]
    }

    let model: LanguageModel
    let architecture: ModelArchitecture
    let weights: Weights
    let scratch: ForwardScratch
    let cache: KVCache
    let pool: WorkerPool
    let ropeLocal: RotaryEmbedding
    let ropeGlobal: RotaryEmbedding
    /// fp16 GELU table (see `VectorMath.geluHalfTable`).
    let geluTable: UnsafeMutablePointer<Float>
    /// Copies of the norm vectors (stable pointers for the hot loop).
    private let norms: UnsafeMutablePointer<Float>

    init(model: LanguageModel, contextLength: Int, batch: Int, threads: Int) {
        self.model = model
        let a = model.architecture
        architecture = a
        pool = WorkerPool(threads: threads)
        let g = model.gemma
        let file = model.file
        let vectors = g.layers.flatMap { [$0.attnNorm, $0.qNorm, $0.kNorm, $0.postAttentionNorm, $0.ffnNorm, $0.postFFNNorm] } + [g.outputNorm]
        let total = vectors.reduce(0) { $0 + $1.count }
        let n = UnsafeMutablePointer<Float>.allocate(capacity: total)
        norms = n
        var offsets: [Int] = []
        var cursor = 0
        for v in vectors {
            offsets.append(cursor)
            v.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { (n + cursor).update(from: base, count: v.count) }
            }
            cursor += v.count
        }
        func vec(_ i: Int) -> UnsafePointer<Float> { UnsafePointer(n + offsets[i]) }
        let layers = g.layers.enumerated().map { il, l in
            Layer(attnNorm: vec(6 * il), qNorm: vec(6 * il + 1), kNorm: vec(6 * il + 2), postAttentionNorm: vec(6 * il + 3),
                  ffnNorm: vec(6 * il + 4), postFFNNorm: vec(6 * il + 5),
                  q: l.q.resolve(in: file), k: l.k.resolve(in: file), v: l.v.resolve(in: file), output: l.output.resolve(in: file),
                  gate: l.gate.resolve(in: file), up: l.up.resolve(in: file), down: l.down.resolve(in: file))
        }
        weights = Weights(embedding: g.embedding.resolve(in: file), output: g.output.resolve(in: file),
                          outputNorm: vec(vectors.count - 1), layers: layers)
        cache = KVCache(architecture: a, contextLength: contextLength, batch: batch)
        let matrices = layers.flatMap { [$0.q, $0.k, $0.v, $0.output, $0.gate, $0.up, $0.down] } + [weights.output]
        scratch = ForwardScratch(architecture: a, batch: batch, contextLength: contextLength, threads: pool.threads,
                                 vocabulary: weights.output.rows, matrices: matrices)
        let table = UnsafeMutablePointer<Float>.allocate(capacity: model.geluTable.count)
        model.geluTable.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { table.initialize(from: base, count: buffer.count) }
        }
        geluTable = table
        ropeLocal = model.ropeLocal
        ropeGlobal = model.ropeGlobal
    }

    deinit { norms.deallocate(); geluTable.deallocate() }

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
