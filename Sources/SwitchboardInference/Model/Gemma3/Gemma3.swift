import Foundation

/// Gemma 3 (llama.cpp `gemma3` / `gemma3_iswa`): embedding × √d, per layer pre-norm attention with
/// per-head q/k RMSNorm and NEOX RoPE (10k local / 1M global), sliding-window layers, post-attention
/// and post-FFN norms before each residual add, GELU-tanh gated FFN, tied output matrix.
struct Gemma3: TransformerFamily {
    struct Layer: Sendable {
        let attnNorm, qNorm, kNorm, postAttentionNorm, ffnNorm, postFFNNorm: [Float]
        let q, k, v, output, gate, up, down: TensorRef
    }

    static let defaults = ModelArchitecture.Defaults(rmsEpsilon: 1e-6, ropeBase: 1_000_000, ropeBaseLocal: 10_000,
                                                     slidingWindowPattern: 6, ropeStyles: ["gemma3": .neox])

    let embedding: TensorRef
    let output: TensorRef
    let outputNorm: [Float]
    let layers: [Layer]
    let ropeLocal: RotaryEmbedding
    let ropeGlobal: RotaryEmbedding
    /// fp16 GELU table (see `VectorMath.geluHalfTable`).
    let geluTable: [Float]

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
            progress(0.7 * Double(il + 1) / Double(a.blockCount))
        }
        self.layers = layers
        let positions = min(a.contextLength, LanguageModel.tabulatedPositions)
        ropeLocal = RotaryEmbedding(dimensions: hk, base: a.ropeBaseLocal, style: a.ropeStyle, tabulated: positions)
        ropeGlobal = RotaryEmbedding(dimensions: hk, base: a.ropeBase, style: a.ropeStyle, tabulated: positions)
        progress(0.9)
        geluTable = VectorMath.geluHalfTable()
        progress(1)
    }

    func makePass(file: GGUFFile, architecture a: ModelArchitecture) -> any ForwardPass { Gemma3Pass(self, file: file, architecture: a) }
}

/// One session's Gemma 3 forward pass over a batch of consecutive positions.
final class Gemma3Pass: ForwardPass {
    struct Layer {
        let attnNorm, qNorm, kNorm, postAttentionNorm, ffnNorm, postFFNNorm: UnsafePointer<Float>
        let q, k, v, output, gate, up, down: WeightMatrix
    }

    let embedding, output: WeightMatrix
    let outputNorm: UnsafePointer<Float>
    let layers: [Layer]
    let ropeLocal, ropeGlobal: RotaryEmbedding
    let geluTable: PinnedVectors
    private let vectors: PinnedVectors

    init(_ g: Gemma3, file: GGUFFile, architecture a: ModelArchitecture) {
        let v = PinnedVectors(g.layers.flatMap { [$0.attnNorm, $0.qNorm, $0.kNorm, $0.postAttentionNorm, $0.ffnNorm,
                                                  $0.postFFNNorm] } + [g.outputNorm])
        vectors = v
        layers = g.layers.enumerated().map { il, l in
            Layer(attnNorm: v[6 * il], qNorm: v[6 * il + 1], kNorm: v[6 * il + 2], postAttentionNorm: v[6 * il + 3],
                  ffnNorm: v[6 * il + 4], postFFNNorm: v[6 * il + 5],
                  q: l.q.resolve(in: file), k: l.k.resolve(in: file), v: l.v.resolve(in: file), output: l.output.resolve(in: file),
                  gate: l.gate.resolve(in: file), up: l.up.resolve(in: file), down: l.down.resolve(in: file))
        }
        outputNorm = v[6 * g.layers.count]
        embedding = g.embedding.resolve(in: file)
        output = g.output.resolve(in: file)
        ropeLocal = g.ropeLocal
        ropeGlobal = g.ropeGlobal
        geluTable = PinnedVectors([g.geluTable])
    }

    var matrices: [WeightMatrix] { layers.flatMap { [$0.q, $0.k, $0.v, $0.output, $0.gate, $0.up, $0.down] } + [output] }

    func forward(_ c: ForwardContext, tokens: UnsafePointer<Int32>, count n: Int, batch: Int,
                 logitsFrom: Int, onLogits: (Int, UnsafeMutablePointer<Float>) -> Void) {
        c.embed(embedding, tokens: tokens, count: n, scale: Float(c.architecture.embeddingLength).squareRoot())
        for il in 0..<layers.count { layer(c, il, count: n, batch: batch) }
        c.logits(outputNorm: outputNorm, output: output, count: n, logitsFrom: logitsFrom, onLogits: onLogits)
    }

    private func layer(_ c: ForwardContext, _ il: Int, count n: Int, batch: Int) {
        let a = c.architecture, s = c.scratch, w = layers[il], d = a.embeddingLength
        c.normRows(w.attnNorm, count: n)
        c.multiply(.init(w.q, s.q), .init(w.k, s.k), .init(w.v, s.v), input: s.normed, count: n, batch: batch)
        let local = a.isSlidingWindow(layer: il)
        c.prepareAttention(layer: il, count: n, rope: local ? ropeLocal : ropeGlobal, queryNorm: w.qNorm, keyNorm: w.kNorm)
        c.attend(layer: il, count: n, batch: batch, window: local ? a.slidingWindow : 0)
        c.multiply(.init(w.output, s.projected), input: s.attention, count: n, batch: batch)
        c.pool.run(chunks: n) { t, _ in
            let x = s.x + t * d, p = s.projected + t * d
            VectorMath.rmsNorm(p, weight: w.postAttentionNorm, eps: a.rmsEpsilon, count: d, into: p)
            for i in 0..<d { x[i] += p[i] }
            VectorMath.rmsNorm(x, weight: w.ffnNorm, eps: a.rmsEpsilon, count: d, into: s.normed + t * d)
        }
        c.multiply(.init(w.gate, s.gate), .init(w.up, s.up), input: s.normed, count: n, batch: batch)
        let gelu = GatedGeluJob(gate: s.gate, up: s.up, table: geluTable[0], count: n * a.feedForwardLength)
        c.pool.run(chunks: gelu.parts, gelu)
        c.multiply(.init(w.down, s.projected), input: s.gate, count: n, batch: batch)
        c.pool.run(chunks: n) { t, _ in
            let x = s.x + t * d, p = s.projected + t * d
            VectorMath.rmsNorm(p, weight: w.postFFNNorm, eps: a.rmsEpsilon, count: d, into: p)
            for i in 0..<d { x[i] += p[i] }
        }
    }
}

/// gate ← gelu(gate)·up in parts of about 4,096 values (a value type: a wide model's decode step
/// has several parts, and a closure region would allocate, `WorkerPool.run`).
struct GatedGeluJob: ParallelJob {
    let gate, up: UnsafeMutablePointer<Float>
    let table: UnsafePointer<Float>
    let count: Int
    var parts: Int { max(1, count / 4096) }

    func run(chunk: Int, worker: Int) {
        for i in WorkerPool.range(chunk, of: count, parts: parts, granularity: 64) {
            gate[i] = VectorMath.gatedGelu(gate[i], up[i], table: table)
        }
    }
}
