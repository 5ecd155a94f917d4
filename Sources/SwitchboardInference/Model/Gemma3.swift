import Foundation

/// Gemma 3 (llama.cpp `gemma3` / `gemma3_iswa`): embedding × √d, per layer pre-norm attention with
/// per-head q/k RMSNorm and NEOX RoPE (10k local / 1M global), sliding-window layers, post-attention
/// and post-FFN norms before each residual add, GELU-tanh gated FFN, tied output matrix.
struct Gemma3Weights: Sendable {
    struct Layer: Sendable {
        let attnNorm, qNorm, kNorm, postAttentionNorm, ffnNorm, postFFNNorm: [Float]
        let q, k, v, output, gate, up, down: TensorRef
    }

    let embedding: TensorRef
    let output: TensorRef
    let outputNorm: [Float]
    let layers: [Layer]

    init(file: GGUFFile, architecture a: ModelArchitecture, progress: (Double) -> Void) throws(InferenceError) {
        let d = a.embeddingLength, hk = a.keyLength
        embedding = try TensorRef(file, "token_embd.weight", columns: d, rows: nil)
        output = file.hasTensor(named: "output.weight") ? try TensorRef(file, "output.weight", columns: d, rows: a.vocabularySize) : embedding
        outputNorm = try TensorRef.vector(file, "output_norm.weight", count: d)
        var layers: [Layer] = []
        for il in 0..<a.blockCount {
            let p = "blk.\(il)."
            layers.append(Layer(
                attnNorm: try TensorRef.vector(file, p + "attn_norm.weight", count: d),
                qNorm: try TensorRef.vector(file, p + "attn_q_norm.weight", count: hk),
                kNorm: try TensorRef.vector(file, p + "attn_k_norm.weight", count: hk),
                postAttentionNorm: try TensorRef.vector(file, p + "post_attention_norm.weight", count: d),
                ffnNorm: try TensorRef.vector(file, p + "ffn_norm.weight", count: d),
                postFFNNorm: try TensorRef.vector(file, p + "post_ffw_norm.weight", count: d),
                q: try TensorRef(file, p + "attn_q.weight", columns: d, rows: a.headCount * hk),
                k: try TensorRef(file, p + "attn_k.weight", columns: d, rows: a.headCountKV * hk),
                v: try TensorRef(file, p + "attn_v.weight", columns: d, rows: a.headCountKV * hk),
                output: try TensorRef(file, p + "attn_output.weight", columns: a.headCount * hk, rows: d),
                gate: try TensorRef(file, p + "ffn_gate.weight", columns: d, rows: a.feedForwardLength),
                up: try TensorRef(file, p + "ffn_up.weight", columns: d, rows: a.feedForwardLength),
                down: try TensorRef(file, p + "ffn_down.weight", columns: a.feedForwardLength, rows: d)))
            progress(Double(il + 1) / Double(a.blockCount))
        }
        self.layers = layers
    }
}

/// The Gemma 3 forward pass over a batch of consecutive positions.
enum Gemma3 {
    /// Runs `count` tokens starting at `start`, writes their keys/values to the cache, and calls
    /// `onLogits(row, logits)` for every row in `logitsFrom..<count` (in order). `batch`: the size of
    /// the llama.cpp batch these rows belong to (the kernels follow its float order for that size).
    static func forward(_ c: ForwardContext, tokens: UnsafePointer<Int32>, count n: Int, batch: Int, start: Int,
                        logitsFrom: Int, onLogits: (Int, UnsafeMutablePointer<Float>) -> Void) {
        let a = c.architecture, s = c.scratch, d = a.embeddingLength
        let scale = Float(d).squareRoot()
        for t in 0..<n {
            c.weights.embedding.dequantizeRow(Int(tokens[t]), into: s.x + t * d)
            for i in 0..<d { s.x[t * d + i] *= scale }
        }
        for il in 0..<a.blockCount {
            layer(c, il, count: n, batch: batch, start: start)
        }
        // Final norm and logits for the requested rows, in tiles that fit the logits buffer.
        var row = logitsFrom
        while row < n {
            let tile = min(s.logitRows, n - row)
            for t in 0..<tile {
                VectorMath.rmsNorm(s.x + (row + t) * d, weight: c.weights.outputNorm, eps: a.rmsEpsilon, count: d, into: s.normed + t * d)
            }
            c.multiply(.init(c.weights.output, s.logits), input: s.normed, count: tile)
            for t in 0..<tile { onLogits(row + t, s.logits + t * c.weights.output.rows) }
            row += tile
        }
    }

    static func layer(_ c: ForwardContext, _ il: Int, count n: Int, batch: Int, start: Int) {
        let a = c.architecture, s = c.scratch, w = c.weights.layers[il]
        let d = a.embeddingLength, hk = a.keyLength, qw = a.queryLength, kvw = a.headCountKV * hk
        // Per-token work is spread over the pool too (a serial part idles the other core).
        c.pool.run(chunks: n) { t, _ in
            VectorMath.rmsNorm(s.x + t * d, weight: w.attnNorm, eps: a.rmsEpsilon, count: d, into: s.normed + t * d)
        }
        c.multiply(.init(w.q, s.q), .init(w.k, s.k), .init(w.v, s.v), input: s.normed, count: n, batch: batch)
        let local = a.isSlidingWindow(layer: il)
        let rope = local ? c.ropeLocal : c.ropeGlobal
        let queryScale = 1 / Float(hk).squareRoot()
        c.pool.run(chunks: n) { t, _ in
            let q = s.q + t * qw, k = s.k + t * kvw
            for h in 0..<a.headCount { VectorMath.rmsNorm(q + h * hk, weight: w.qNorm, eps: a.rmsEpsilon, count: hk, into: q + h * hk) }
            for h in 0..<a.headCountKV { VectorMath.rmsNorm(k + h * hk, weight: w.kNorm, eps: a.rmsEpsilon, count: hk, into: k + h * hk) }
            rope.apply(q, heads: a.headCount, position: start + t, stride: hk)
            rope.apply(k, heads: a.headCountKV, position: start + t, stride: hk)
            // llama.cpp multiplies q in f32, then its f16 KV matmul sees q rounded to f16.
            for i in 0..<qw { q[i] = Float(Float16(q[i] * queryScale)) }
            c.cache.store(layer: il, position: start + t, key: k, value: s.v + t * kvw)
        }
        attention(c, il, count: n, batch: batch, start: start, window: local ? a.slidingWindow : 0)
        c.multiply(.init(w.output, s.projected), input: s.attention, count: n, batch: batch)
        c.pool.run(chunks: n) { t, _ in
            let x = s.x + t * d, p = s.projected + t * d
            VectorMath.rmsNorm(p, weight: w.postAttentionNorm, eps: a.rmsEpsilon, count: d, into: p)
            for i in 0..<d { x[i] += p[i] }
            VectorMath.rmsNorm(x, weight: w.ffnNorm, eps: a.rmsEpsilon, count: d, into: s.normed + t * d)
        }
        c.multiply(.init(w.gate, s.gate), .init(w.up, s.up), input: s.normed, count: n, batch: batch)
        let gelu = GatedGeluJob(gate: s.gate, up: s.up, table: c.geluTable, count: n * a.feedForwardLength)
        c.pool.run(chunks: gelu.parts, gelu)
        c.multiply(.init(w.down, s.projected), input: s.gate, count: n, batch: batch)
        c.pool.run(chunks: n) { t, _ in
            let x = s.x + t * d, p = s.projected + t * d
            VectorMath.rmsNorm(p, weight: w.postFFNNorm, eps: a.rmsEpsilon, count: d, into: p)
            for i in 0..<d { x[i] += p[i] }
        }
    }

    /// Every (token, head) pair is independent once the batch's keys/values are cached.
    static func attention(_ c: ForwardContext, _ il: Int, count n: Int, batch: Int, start: Int, window: Int) {
        let a = c.architecture, s = c.scratch, hk = a.keyLength
        let group = a.headCount / a.headCountKV
        let job = AttentionJob(queries: s.q, outputs: s.attention, queryLength: a.queryLength, headCount: a.headCount, group: group, headLength: hk,
                               layer: c.cache.layers[il], width: c.cache.width, start: start, window: window, singleToken: batch == 1,
                               scores: s.scores, scoreCapacity: s.scoreCapacity)
        c.pool.run(chunks: n * a.headCount, job)
    }
}

/// gate ← gelu(gate)·up in parts of about 4,096 values (a value type: a wide model's decode step
/// has several parts, and a closure region would allocate, `WorkerPool.run`).
struct GatedGeluJob: ParallelJob {
    let gate, up: UnsafeMutablePointer<Float>
    let table: UnsafeMutablePointer<Float>
    let count: Int
    var parts: Int { max(1, count / 4096) }

    func run(chunk: Int, worker: Int) {
        for i in WorkerPool.range(chunk, of: count, parts: parts, granularity: 64) {
            gate[i] = VectorMath.gatedGelu(gate[i], up[i], table: table)
        }
    }
}

/// The attention region: one chunk per (token, head) pair (a value type: it runs for every token,
/// and a closure region would allocate, `WorkerPool.run`).
struct AttentionJob: ParallelJob {
    let queries, outputs: UnsafeMutablePointer<Float>
    let queryLength, headCount, group, headLength: Int
    let layer: KVCache.Layer
    let width, start, window: Int
    let singleToken: Bool
    let scores: UnsafeMutablePointer<Float>
    let scoreCapacity: Int

    func run(chunk: Int, worker: Int) {
        let t = chunk / headCount, h = chunk % headCount, offset = t * queryLength + h * headLength
        Attention.head(query: queries + offset, layer: layer, width: width, kvHead: h / group, headLength: headLength,
                       position: start + t, window: window, singleToken: singleToken,
                       scores: scores + worker * scoreCapacity, output: outputs + offset)
    }
}
