/// BERT as Devlin et al. describe it, the way sentence-transformers' all-MiniLM-L6-v2 runs it:
/// token + absolute position + token-type (0) embeddings, LayerNorm; per layer bidirectional
/// multi-head self-attention, then a residual add and LayerNorm (post-norm), an FFN with exact erf
/// GELU, a residual add and LayerNorm; then the mean of the last layer's states over the sentence's
/// real tokens, L2-normalized.
///
/// A batch is ragged: sentences lie back to back (no padding rows), and each sentence's attention
/// spans only its own keys — the padding mask, without computing the padded positions at all.
final class Bert {
    struct Norm {
        let weight, bias: UnsafePointer<Float>
    }

    struct Layer {
        /// Q, K and V stacked into one product: a row of its output is [q | k | v].
        let qkv, attentionOutput, up, down: PanelMatrix
        let attentionNorm, outputNorm: Norm
    }

    let h: BertHyperparameters
    let vocabularySize: Int
    let wordEmbeddings, positionEmbeddings, tokenType0: UnsafePointer<Float>
    let embeddingNorm: Norm
    let layers: [Layer]
    private let vectors: PinnedVectors

    init(_ h: BertHyperparameters, weights w: some BertWeightSource) throws(BertError) {
        let d = h.hidden, f = h.feedForward
        let vocabulary = try w.shape("embeddings.word_embeddings.weight")
        let types = try w.shape("embeddings.token_type_embeddings.weight")
        guard vocabulary.count == 2, vocabulary[0] >= 1, vocabulary[1] == d, types.count == 2, types[0] >= 1, types[1] == d else {
            throw .unsupportedConfiguration("embedding shapes \(vocabulary) and \(types) do not match hidden size \(d)")
        }
        vocabularySize = vocabulary[0]
        var pinned = [try w.floats("embeddings.word_embeddings.weight", shape: vocabulary),
                      try w.floats("embeddings.position_embeddings.weight", shape: [h.positions, d]),
                      Array(try w.floats("embeddings.token_type_embeddings.weight", shape: types).prefix(d)),
                      try w.floats("embeddings.LayerNorm.weight", shape: [d]), try w.floats("embeddings.LayerNorm.bias", shape: [d])]
        var matrices: [(PanelMatrix, PanelMatrix, PanelMatrix, PanelMatrix)] = []
        for il in 0..<h.layers {
            let p = "encoder.layer.\(il)."
            func linear(_ name: String, _ outputs: Int, _ inputs: Int) throws(BertError) -> ([Float], [Float]) {
                (try w.floats(p + name + ".weight", shape: [outputs, inputs]), try w.floats(p + name + ".bias", shape: [outputs]))
            }
            let q = try linear("attention.self.query", d, d), k = try linear("attention.self.key", d, d)
            let v = try linear("attention.self.value", d, d), o = try linear("attention.output.dense", d, d)
            let up = try linear("intermediate.dense", f, d), down = try linear("output.dense", d, f)
            matrices.append((PanelMatrix(rowMajor: q.0 + k.0 + v.0, bias: q.1 + k.1 + v.1, outputs: 3 * d, inputs: d),
                             PanelMatrix(rowMajor: o.0, bias: o.1, outputs: d, inputs: d),
                             PanelMatrix(rowMajor: up.0, bias: up.1, outputs: f, inputs: d),
                             PanelMatrix(rowMajor: down.0, bias: down.1, outputs: d, inputs: f)))
            for norm in ["attention.output.LayerNorm", "output.LayerNorm"] {
                pinned.append(try w.floats(p + norm + ".weight", shape: [d]))
                pinned.append(try w.floats(p + norm + ".bias", shape: [d]))
            }
        }
        let v = PinnedVectors(pinned)
        vectors = v
        self.h = h
        wordEmbeddings = v[0]; positionEmbeddings = v[1]; tokenType0 = v[2]
        embeddingNorm = Norm(weight: v[3], bias: v[4])
        layers = matrices.enumerated().map { il, m in
            Layer(qkv: m.0, attentionOutput: m.1, up: m.2, down: m.3,
                  attentionNorm: Norm(weight: v[5 + 4 * il], bias: v[6 + 4 * il]), outputNorm: Norm(weight: v[7 + 4 * il], bias: v[8 + 4 * il]))
        }
    }

    /// Runs the encoder over sentences laid back to back in `s.tokens` and writes each sentence's
    /// normalized embedding into `out` (`sentences × hidden`).
    func encode(_ s: BertScratch, sentences: [Range<Int>], into out: UnsafeMutablePointer<Float>, pool: WorkerPool) {
        let n = sentences.last?.upperBound ?? 0, d = h.hidden
        embed(s, sentences: sentences, pool: pool)
        for layer in layers {
            layer.qkv.apply(s.x, count: n, into: s.qkv, pool: pool)
            attend(s, sentences: sentences, pool: pool)
            layer.attentionOutput.apply(s.context, count: n, into: s.projected, pool: pool)
            addAndNormalize(s.x, s.projected, layer.attentionNorm, count: n, pool: pool)
            layer.up.apply(s.x, count: n, into: s.hidden, gelu: true, pool: pool)
            layer.down.apply(s.hidden, count: n, into: s.projected, pool: pool)
            addAndNormalize(s.x, s.projected, layer.outputNorm, count: n, pool: pool)
        }
        for (i, sentence) in sentences.enumerated() {
            let e = out + i * d
            e.initialize(repeating: 0, count: d)
            for t in sentence { VectorMath.axpy(1 / Float(sentence.count), s.x + t * d, e, count: d) }
            let norm = VectorMath.dot(e, e, count: d).squareRoot()
            if norm > 0 { for j in 0..<d { e[j] /= norm } }
        }
    }

    /// x[t] = LayerNorm(word[id] + position[t − start] + type[0]).
    private func embed(_ s: BertScratch, sentences: [Range<Int>], pool: WorkerPool) {
        let d = h.hidden
        pool.run(chunks: sentences.count) { i, _ in
            for t in sentences[i] {
                let x = s.x + t * d, word = wordEmbeddings + Int(s.tokens[t]) * d
                let position = positionEmbeddings + (t - sentences[i].lowerBound) * d
                for j in 0..<d { x[j] = word[j] + position[j] + tokenType0[j] }
                layerNorm(x, embeddingNorm)
            }
        }
    }

    /// softmax(q·kᵀ/√dₕ)·v per sentence and head, keys limited to the sentence.
    private func attend(_ s: BertScratch, sentences: [Range<Int>], pool: WorkerPool) {
        let d = h.hidden, dh = h.headDimension, heads = h.heads, row = 3 * d
        let scale = 1 / Float(dh).squareRoot()
        pool.run(chunks: sentences.count * heads) { chunk, worker in
            let sentence = sentences[chunk / heads], head = chunk % heads
            let scores = s.scores + worker * s.scoreStride
            let keys = sentence.count, padded = (keys + 15) & ~15
            for t in sentence {
                let q = s.qkv + t * row + head * dh
                var best = -Float.infinity
                for (j, u) in sentence.enumerated() {
                    scores[j] = VectorMath.dot(q, s.qkv + u * row + d + head * dh, count: dh) * scale
                    best = max(best, scores[j])
                }
                for j in keys..<padded { scores[j] = -.infinity }
                var total = SIMD16<Float>()
                let raw = UnsafeMutableRawPointer(scores)
                for j in stride(from: 0, to: padded, by: 16) {
                    let e = VectorMath.exp(raw.load(fromByteOffset: 4 * j, as: SIMD16<Float>.self) - best, .avx512)
                    raw.storeBytes(of: e, toByteOffset: 4 * j, as: SIMD16<Float>.self)
                    total += e
                }
                let c = s.context + t * d + head * dh
                c.initialize(repeating: 0, count: dh)
                let inverse = 1 / total.sum()
                for (j, u) in sentence.enumerated() { VectorMath.axpy(scores[j] * inverse, s.qkv + u * row + 2 * d + head * dh, c, count: dh) }
            }
        }
    }

    /// x ← LayerNorm(x + y), row by row.
    private func addAndNormalize(_ x: UnsafeMutablePointer<Float>, _ y: UnsafePointer<Float>, _ norm: Norm, count: Int, pool: WorkerPool) {
        let d = h.hidden, parts = min(count, 2 * pool.threads)
        pool.run(chunks: parts) { part, _ in
            for t in WorkerPool.range(part, of: count, parts: parts) {
                let row = x + t * d, add = y + t * d
                for j in 0..<d { row[j] += add[j] }
                layerNorm(row, norm)
            }
        }
    }

    /// (x − mean) / √(var + ε) · weight + bias, in place; two passes for an exact variance.
    private func layerNorm(_ x: UnsafeMutablePointer<Float>, _ norm: Norm) {
        let d = h.hidden
        var sum: Float = 0
        for j in 0..<d { sum += x[j] }
        let mean = sum / Float(d)
        var squares: Float = 0
        for j in 0..<d { let c = x[j] - mean; squares += c * c }
        let inverse = 1 / (squares / Float(d) + h.layerNormEpsilon).squareRoot()
        for j in 0..<d { x[j] = (x[j] - mean) * inverse * norm.weight[j] + norm.bias[j] }
    }
}

/// Activations for one batch of up to `capacity` tokens, reused across calls.
final class BertScratch {
    let capacity: Int
    let tokens: UnsafeMutablePointer<Int32>
    let x, qkv, context, projected, hidden, scores: UnsafeMutablePointer<Float>
    let scoreStride: Int

    init(capacity: Int, hyperparameters h: BertHyperparameters, maxSentence: Int, threads: Int) {
        self.capacity = capacity
        tokens = .allocate(capacity: capacity)
        x = .allocate(capacity: capacity * h.hidden)
        qkv = .allocate(capacity: capacity * 3 * h.hidden)
        context = .allocate(capacity: capacity * h.hidden)
        projected = .allocate(capacity: capacity * h.hidden)
        hidden = .allocate(capacity: capacity * h.feedForward)
        scoreStride = (maxSentence + 15) & ~15
        scores = .allocate(capacity: scoreStride * threads)
    }

    deinit {
        for p in [x, qkv, context, projected, hidden, scores] { p.deallocate() }
        tokens.deallocate()
    }
}
