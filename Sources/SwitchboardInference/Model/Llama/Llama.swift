/// The Llama family (llama.cpp `llama`, and the `qwen2`/`qwen3` variants): embedding, per block
/// pre-norm grouped-query attention and a SiLU-gated FFN, each added to the residual; final RMSNorm;
/// output matrix or the tied embedding. RoPE NORM (adjacent pairs) for `llama`, NEOX for Qwen.
/// Optional per block: q/k/v biases (Qwen2) and per-head q/k RMSNorm (Qwen3), each used when the
/// file has the tensors.
struct Llama: TransformerFamily {
    struct Layer: Sendable {
        let attnNorm, ffnNorm: [Float]
        /// Empty when the file has none.
        let qBias, kBias, vBias, qNorm, kNorm: [Float]
        let q, k, v, output, gate, up, down: TensorRef
    }

    static let defaults = ModelArchitecture.Defaults(rmsEpsilon: 1e-5, ropeBase: 10_000,
                                                     ropeStyles: ["llama": .norm, "qwen2": .neox, "qwen3": .neox])

    let embedding: TensorRef
    let output: TensorRef
    let outputNorm: [Float]
    let layers: [Layer]
    let rope: RotaryEmbedding

    init(file: GGUFFile, architecture a: ModelArchitecture, progress: (Double) -> Void) throws(InferenceError) {
        let d = a.embeddingLength, hk = a.keyLength, qw = a.queryLength, kvw = a.headCountKV * hk
        embedding = try TensorRef(file, "token_embd.weight", columns: d, rows: nil)
        output = file.hasTensor(named: "output.weight") ? try TensorRef(file, "output.weight", columns: d, rows: a.vocabularySize) : embedding
        outputNorm = try TensorRef.vector(file, "output_norm.weight", count: d)
        func optional(_ name: String, count: Int) throws(InferenceError) -> [Float] {
            file.hasTensor(named: name) ? try TensorRef.vector(file, name, count: count) : []
        }
        var layers: [Layer] = []
        for il in 0..<a.blockCount {
            let p = "blk.\(il)."
            layers.append(Layer(
                attnNorm: try TensorRef.vector(file, p + "attn_norm.weight", count: d),
                ffnNorm: try TensorRef.vector(file, p + "ffn_norm.weight", count: d),
                qBias: try optional(p + "attn_q.bias", count: qw), kBias: try optional(p + "attn_k.bias", count: kvw),
                vBias: try optional(p + "attn_v.bias", count: kvw),
                qNorm: try optional(p + "attn_q_norm.weight", count: hk), kNorm: try optional(p + "attn_k_norm.weight", count: hk),
                q: try TensorRef(file, p + "attn_q.weight", columns: d, rows: qw),
                k: try TensorRef(file, p + "attn_k.weight", columns: d, rows: kvw),
                v: try TensorRef(file, p + "attn_v.weight", columns: d, rows: kvw),
                output: try TensorRef(file, p + "attn_output.weight", columns: qw, rows: d),
                gate: try TensorRef(file, p + "ffn_gate.weight", columns: d, rows: a.feedForwardLength),
                up: try TensorRef(file, p + "ffn_up.weight", columns: d, rows: a.feedForwardLength),
                down: try TensorRef(file, p + "ffn_down.weight", columns: a.feedForwardLength, rows: d)))
            progress(0.8 * Double(il + 1) / Double(a.blockCount))
        }
        self.layers = layers
        rope = RotaryEmbedding(dimensions: hk, base: a.ropeBase, style: a.ropeStyle,
                               tabulated: min(a.contextLength, LanguageModel.tabulatedPositions))
        progress(1)
    }

    func makePass(file: GGUFFile, architecture a: ModelArchitecture) -> any ForwardPass { LlamaPass(self, file: file) }
}

/// One session's Llama-family forward pass over a batch of consecutive positions.
final class LlamaPass: ForwardPass {
    struct Layer {
        let attnNorm, ffnNorm: UnsafePointer<Float>
        let qBias, kBias, vBias, qNorm, kNorm: UnsafePointer<Float>?
        let q, k, v, output, gate, up, down: WeightMatrix
    }

    let embedding, output: WeightMatrix
    let outputNorm: UnsafePointer<Float>
    let layers: [Layer]
    let rope: RotaryEmbedding
    private let vectors: PinnedVectors

    init(_ m: Llama, file: GGUFFile) {
        let perLayer = 7
        let v = PinnedVectors(m.layers.flatMap { [$0.attnNorm, $0.ffnNorm, $0.qBias, $0.kBias, $0.vBias, $0.qNorm, $0.kNorm] } + [m.outputNorm])
        vectors = v
        layers = m.layers.enumerated().map { il, l in
            func present(_ i: Int, _ values: [Float]) -> UnsafePointer<Float>? { values.isEmpty ? nil : v[perLayer * il + i] }
            return Layer(attnNorm: v[perLayer * il], ffnNorm: v[perLayer * il + 1],
                         qBias: present(2, l.qBias), kBias: present(3, l.kBias), vBias: present(4, l.vBias),
                         qNorm: present(5, l.qNorm), kNorm: present(6, l.kNorm),
                         q: l.q.resolve(in: file), k: l.k.resolve(in: file), v: l.v.resolve(in: file), output: l.output.resolve(in: file),
                         gate: l.gate.resolve(in: file), up: l.up.resolve(in: file), down: l.down.resolve(in: file))
        }
        outputNorm = v[perLayer * m.layers.count]
        embedding = m.embedding.resolve(in: file)
        output = m.output.resolve(in: file)
        rope = m.rope
    }

    var matrices: [WeightMatrix] { layers.flatMap { [$0.q, $0.k, $0.v, $0.output, $0.gate, $0.up, $0.down] } + [output] }

    func forward(_ c: ForwardContext, tokens: UnsafePointer<Int32>, count n: Int, batch: Int,
                 logitsFrom: Int, onLogits: (Int, UnsafeMutablePointer<Float>) -> Void) {
        c.embed(embedding, tokens: tokens, count: n)
        for il in 0..<layers.count { layer(c, il, count: n, batch: batch) }
        c.logits(outputNorm: outputNorm, output: output, count: n, logitsFrom: logitsFrom, onLogits: onLogits)
    }

    private func layer(_ c: ForwardContext, _ il: Int, count n: Int, batch: Int) {
        let a = c.architecture, s = c.scratch, w = layers[il], d = a.embeddingLength
        c.normRows(w.attnNorm, count: n)
        c.multiply(.init(w.q, s.q), .init(w.k, s.k), .init(w.v, s.v), input: s.normed, count: n, batch: batch)
        if w.qBias != nil || w.kBias != nil || w.vBias != nil {
            let qw = a.queryLength, kvw = a.headCountKV * a.keyLength
            c.pool.run(chunks: n) { t, _ in
                if let b = w.qBias { for i in 0..<qw { s.q[t * qw + i] += b[i] } }
                if let b = w.kBias { for i in 0..<kvw { s.k[t * kvw + i] += b[i] } }
                if let b = w.vBias { for i in 0..<kvw { s.v[t * kvw + i] += b[i] } }
            }
        }
        c.prepareAttention(layer: il, count: n, rope: rope, queryNorm: w.qNorm, keyNorm: w.kNorm)
        c.attend(layer: il, count: n, batch: batch, window: 0)
        c.multiply(.init(w.output, s.projected), input: s.attention, count: n, batch: batch)
        c.pool.run(chunks: n) { t, _ in
            let x = s.x + t * d, p = s.projected + t * d
            for i in 0..<d { x[i] += p[i] }
            VectorMath.rmsNorm(x, weight: w.ffnNorm, eps: a.rmsEpsilon, count: d, into: s.normed + t * d)
        }
        c.multiply(.init(w.gate, s.gate), .init(w.up, s.up), input: s.normed, count: n, batch: batch)
        let swiglu = SwiGLUJob(gate: s.gate, up: s.up, count: n * a.feedForwardLength, build: c.build)
        c.pool.run(chunks: swiglu.parts, swiglu)
        c.multiply(.init(w.down, s.projected), input: s.gate, count: n, batch: batch)
        c.pool.run(chunks: n) { t, _ in
            let x = s.x + t * d, p = s.projected + t * d
            for i in 0..<d { x[i] += p[i] }
        }
    }
}

/// gate ← silu(gate)·up in parts of about 4,096 values (a value type, like `GatedGeluJob`).
struct SwiGLUJob: ParallelJob {
    let gate, up: UnsafeMutablePointer<Float>
    let count: Int
    let build: ReferenceBuild
    var parts: Int { max(1, count / 4096) }

    func run(chunk: Int, worker: Int) {
        VectorMath.swiglu(gate: gate, up: up, range: WorkerPool.range(chunk, of: count, parts: parts, granularity: 64), build: build)
    }
}
