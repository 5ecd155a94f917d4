/// Steps every family's forward pass takes the same way.
extension ForwardContext {
    /// x[t] ← row tokens[t] of the embedding matrix, times `scale` when given (Gemma's √d).
    func embed(_ embedding: WeightMatrix, tokens: UnsafePointer<Int32>, count n: Int, scale: Float? = nil) {
        let s = scratch, d = architecture.embeddingLength
        for t in 0..<n {
            embedding.dequantizeRow(Int(tokens[t]), into: s.x + t * d)
            if let scale { for i in 0..<d { s.x[t * d + i] *= scale } }
        }
    }

    /// normed[t] ← RMSNorm(x[t]) ⊙ weight, spread over the pool (a serial part idles the other core).
    func normRows(_ weight: UnsafePointer<Float>, count n: Int) {
        let s = scratch, d = architecture.embeddingLength, eps = architecture.rmsEpsilon
        pool.run(chunks: n) { t, _ in
            VectorMath.rmsNorm(s.x + t * d, weight: weight, eps: eps, count: d, into: s.normed + t * d)
        }
    }

    /// Queries and keys after projection: optional per-head RMSNorm, rotation, the attention scale
    /// (folded into the query, as exact as llama.cpp's scaled softmax when it is a power of two), then
    /// keys and values into the cache.
    func prepareAttention(layer il: Int, count n: Int, rope: RotaryEmbedding,
                          queryNorm: UnsafePointer<Float>? = nil, keyNorm: UnsafePointer<Float>? = nil) {
        let a = architecture, s = scratch, hk = a.keyLength, qw = a.queryLength, kvw = a.headCountKV * hk
        let queryScale = 1 / Float(hk).squareRoot()
        let rows = self.rows
        pool.run(chunks: n) { t, _ in
            let row = rows[t]
            let q = s.q + t * qw, k = s.k + t * kvw
            if let queryNorm { for h in 0..<a.headCount { VectorMath.rmsNorm(q + h * hk, weight: queryNorm, eps: a.rmsEpsilon, count: hk,
                                                                             into: q + h * hk) } }
            if let keyNorm { for h in 0..<a.headCountKV { VectorMath.rmsNorm(k + h * hk, weight: keyNorm, eps: a.rmsEpsilon, count: hk,
                                                                             into: k + h * hk) } }
            rope.apply(q, heads: a.headCount, position: row.position, stride: hk)
            rope.apply(k, heads: a.headCountKV, position: row.position, stride: hk)
            // llama.cpp multiplies q in f32, then its f16 KV matmul sees q rounded to f16.
            for i in 0..<qw { q[i] = Float(Float16(q[i] * queryScale)) }
            row.cache.store(layer: il, position: row.position, key: k, value: s.v + t * kvw)
        }
    }

    /// attention[t] ← softmax(q·K) · V for every (token, head) pair, each row over its own
    /// sequence's cache, independent once the batch's keys and values are cached. `window`: 0 for
    /// full causal attention.
    func attend(layer il: Int, count n: Int, batch: Int, window: Int) {
        let a = architecture, s = scratch
        rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return }
            let group = a.headCount / a.headCountKV
            let job = AttentionJob(queries: s.q, outputs: s.attention, queryLength: a.queryLength, headCount: a.headCount,
                                   group: group, headsPerChunk: AttentionJob.headsPerChunk(group: group, heads: a.headCount, tokens: n,
                                                                                           threads: pool.threads),
                                   headLength: a.keyLength, layer: il, rows: base,
                                   window: window, singleToken: batch == 1 || rowsAreSequences, build: build,
                                   scores: s.scores, scoreCapacity: s.scoreCapacity)
            pool.run(chunks: n * a.headCount / job.headsPerChunk, job)
        }
    }

    /// Final RMSNorm and logits for rows `logitsFrom..<n`, in tiles that fit the logits buffer.
    func logits(outputNorm: UnsafePointer<Float>, output: WeightMatrix, count n: Int, logitsFrom: Int,
                onLogits: (Int, UnsafeMutablePointer<Float>) -> Void) {
        let a = architecture, s = scratch, d = a.embeddingLength
        var row = logitsFrom
        while row < n {
            let tile = min(s.logitRows, n - row)
            for t in 0..<tile {
                VectorMath.rmsNorm(s.x + (row + t) * d, weight: outputNorm, eps: a.rmsEpsilon, count: d, into: s.normed + t * d)
            }
            multiply(.init(output, s.logits), input: s.normed, count: tile)
            for t in 0..<tile { onLogits(row + t, s.logits + t * output.rows) }
            row += tile
        }
    }
}

/// The attention region: one chunk per token and run of `headsPerChunk` query heads that share a KV
/// head (a value type: it runs for every token, and a closure region would allocate,
/// `WorkerPool.run`). The heads of a chunk run one after the other on one thread, so the second
/// and later ones read that KV head's keys and values from the core's own cache instead of from
/// L3 (in decode the cache reads, not the arithmetic, bound attention). Each head's arithmetic is
/// unchanged.
struct AttentionJob: ParallelJob {
    let queries, outputs: UnsafeMutablePointer<Float>
    let queryLength, headCount, group, headsPerChunk, headLength: Int
    let layer: Int
    let rows: UnsafePointer<BatchRow>
    let window: Int
    let singleToken: Bool
    let build: ReferenceBuild
    let scores: UnsafeMutablePointer<Float>
    let scoreCapacity: Int

    /// The largest divisor of `group` that still leaves every thread a chunk.
    static func headsPerChunk(group: Int, heads: Int, tokens: Int, threads: Int) -> Int {
        var best = 1
        for d in 1...max(1, group) where group % d == 0 && tokens * (heads / d) >= threads { best = d }
        return best
    }

    func run(chunk: Int, worker: Int) {
        let chunksPerToken = headCount / headsPerChunk
        let t = chunk / chunksPerToken, first = (chunk % chunksPerToken) * headsPerChunk
        let row = rows[t]
        let scratch = scores + worker * 2 * scoreCapacity
        var h = first
        while h < first + headsPerChunk {
            let offset = t * queryLength + h * headLength
            // The heads of a KV head go two at a time (shared key and value loads).
            if h + 1 < first + headsPerChunk {
                let queryPair = (UnsafePointer(queries + offset), UnsafePointer(queries + offset + headLength))
                let scorePair = (scratch, scratch + scoreCapacity), outputPair = (outputs + offset, outputs + offset + headLength)
                Attention.headPair(queries: queryPair, layer: row.cache.layers[layer], width: row.cache.width, kvHead: h / group,
                                   headLength: headLength, position: row.position, window: window, singleToken: singleToken, build: build,
                                   scores: scorePair, outputs: outputPair)
                h += 2
                continue
            }
            Attention.head(query: queries + offset, layer: row.cache.layers[layer], width: row.cache.width, kvHead: h / group, headLength: headLength,
                           position: row.position, window: window, singleToken: singleToken, build: build,
                           scores: scratch, output: outputs + offset)
            h += 1
        }
    }
}
