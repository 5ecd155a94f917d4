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
    ///
    /// Four parallel regions per layer: Q, K, V and attention per head (a head's three column panels
    /// and its softmax need nothing from other heads), the output product (with its add & LayerNorm
    /// done by the chunk that finishes each block of rows), the FFN up product with GELU, the down
    /// product (with its add & LayerNorm). For one short sentence the barriers between regions are a
    /// large part of the latency, so every one that is not a real all-to-all dependency is gone.
    func encode(_ s: BertScratch, sentences: [Range<Int>], into out: UnsafeMutablePointer<Float>, pool: WorkerPool) {
        let n = sentences.last?.upperBound ?? 0, d = h.hidden
        embed(s, sentences: sentences, pool: pool)
        let headsOnPanels = h.headDimension % PanelMatrix.width == 0
        for layer in layers {
            if headsOnPanels {
                sentences.withUnsafeBufferPointer { ranges in
                    pool.run(chunks: h.heads, HeadAttentionJob(model: self, scratch: s, qkv: layer.qkv, sentences: ranges, count: n))
                }
            } else {
                layer.qkv.apply(s.x, count: n, into: s.qkv, pool: pool)
                pool.run(chunks: sentences.count * h.heads) { chunk, worker in
                    attend(s, sentence: sentences[chunk / h.heads], head: chunk % h.heads, worker: worker)
                }
            }
            layer.attentionOutput.apply(s.context, count: n, into: s.projected, then: residualNorm(s, layer.attentionNorm), pool: pool)
            layer.up.apply(s.x, count: n, into: s.hidden, gelu: true, pool: pool)
            layer.down.apply(s.hidden, count: n, into: s.projected, then: residualNorm(s, layer.outputNorm), pool: pool)
        }
        for (i, sentence) in sentences.enumerated() {
            let e = out + i * d
            e.initialize(repeating: 0, count: d)
            for t in sentence { VectorMath.axpy(1 / Float(sentence.count), s.x + t * d, e, count: d) }
            let norm = VectorMath.dot(e, e, count: d).squareRoot()
            if norm > 0 { for j in 0..<d { e[j] /= norm } }
        }
    }

    private func residualNorm(_ s: BertScratch, _ norm: Norm) -> ResidualNorm {
        ResidualNorm(x: s.x, weight: norm.weight, bias: norm.bias, epsilon: h.layerNormEpsilon, counters: s.counters)
    }

    /// x[t] = LayerNorm(word[id] + position[t − start] + type[0]).
    private func embed(_ s: BertScratch, sentences: [Range<Int>], pool: WorkerPool) {
        let d = h.hidden
        pool.run(chunks: sentences.count) { i, _ in
            for t in sentences[i] {
                let x = s.x + t * d, word = wordEmbeddings + Int(s.tokens[t]) * d
                let position = positionEmbeddings + (t - sentences[i].lowerBound) * d
                for j in 0..<d { x[j] = word[j] + position[j] + tokenType0[j] }
                VectorMath.addLayerNorm(x, nil, weight: embeddingNorm.weight, bias: embeddingNorm.bias, count: d, epsilon: h.layerNormEpsilon)
            }
        }
    }

    /// softmax(q·kᵀ/√dₕ)·v for one sentence and head, keys limited to the sentence; `worker` picks
    /// the thread's scratch rows.
    ///
    /// The head's keys are first copied transposed (`keys[i][j]` = component i of key j, 16 keys to a
    /// vector, zero-padded), so a query's scores against 16 keys are dₕ broadcast FMAs with no
    /// horizontal sums; the context accumulates in registers when dₕ is 32.
    func attend(_ s: BertScratch, sentence: Range<Int>, head: Int, worker: Int) {
        let d = h.hidden, dh = h.headDimension, row = 3 * d
        let scale = 1 / Float(dh).squareRoot()
        let count = sentence.count, padded = (count + 15) & ~15
        let scores = UnsafeMutableRawPointer(s.scores + worker * s.scoreStride)
        let keys = s.keys + worker * s.scoreStride * dh
        for i in 0..<dh {
            let line = keys + i * padded
            for (j, u) in sentence.enumerated() { line[j] = s.qkv[u * row + d + head * dh + i] }
            for j in count..<padded { line[j] = 0 }
        }
        // Added to the last block's scores: −∞ on the padding lanes (built once per sentence and head;
        // a lane-index comparison per query would not vectorize).
        var tail = SIMD16<Float>()
        for lane in (count - (padded - 16))..<16 { tail[lane] = -.infinity }
        let rawKeys = UnsafeRawPointer(keys)
        for t in sentence {
            let q = s.qkv + t * row + head * dh
            var best = SIMD16<Float>(repeating: -.infinity)
            for block in stride(from: 0, to: padded, by: 16) {
                var acc = SIMD16<Float>()
                var k = rawKeys + 4 * block
                for i in 0..<dh {
                    acc.addProduct(q[i], k.loadUnaligned(as: SIMD16<Float>.self))
                    k += 4 * padded
                }
                acc *= scale
                if block + 16 == padded { acc += tail }
                scores.storeBytes(of: acc, toByteOffset: 4 * block, as: SIMD16<Float>.self)
                best = best.replacing(with: acc, where: acc .> best)
            }
            let top = best.max()
            var total = SIMD16<Float>()
            for block in stride(from: 0, to: padded, by: 16) {
                let e = VectorMath.exp(scores.loadUnaligned(fromByteOffset: 4 * block, as: SIMD16<Float>.self) - top, .avx512)
                scores.storeBytes(of: e, toByteOffset: 4 * block, as: SIMD16<Float>.self)
                total += e
            }
            let inverse = 1 / total.sum()
            let weights = scores.assumingMemoryBound(to: Float.self)
            let c = s.context + t * d + head * dh
            if dh == 32 {
                var low = SIMD16<Float>(), high = SIMD16<Float>()
                for (j, u) in sentence.enumerated() {
                    let v = UnsafeRawPointer(s.qkv + u * row + 2 * d + head * dh), p = weights[j] * inverse
                    low.addProduct(p, v.loadUnaligned(as: SIMD16<Float>.self))
                    high.addProduct(p, v.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self))
                }
                UnsafeMutableRawPointer(c).storeBytes(of: low, as: SIMD16<Float>.self)
                UnsafeMutableRawPointer(c).storeBytes(of: high, toByteOffset: 64, as: SIMD16<Float>.self)
            } else {
                c.initialize(repeating: 0, count: dh)
                for (j, u) in sentence.enumerated() { VectorMath.axpy(weights[j] * inverse, s.qkv + u * row + 2 * d + head * dh, c, count: dh) }
            }
        }
    }
}

/// One head per chunk: that head's Q, K and V columns (whole panels when the head dimension is a
/// multiple of 32) for every token, block by block of rows, then its attention in every sentence.
///
/// Plain data (unowned references, a buffer of ranges) for the reason given at `PanelProductJob.matrix`;
/// `encode` holds everything it points to for the region.
struct HeadAttentionJob: ParallelJob {
    unowned(unsafe) let model: Bert
    unowned(unsafe) let scratch: BertScratch
    unowned(unsafe) let qkv: PanelMatrix
    let sentences: UnsafeBufferPointer<Range<Int>>
    let count: Int

    func run(chunk head: Int, worker: Int) {
        let d = model.h.hidden, dh = model.h.headDimension, width = PanelMatrix.width
        for start in stride(from: 0, to: count, by: PanelProductJob.blockRows) {
            let rows = start..<min(count, start + PanelProductJob.blockRows)
            for part in 0..<3 {
                let first = (part * d + head * dh) / width
                for panel in first..<(first + dh / width) { qkv.product(scratch.x, rows: rows, panel: panel, into: scratch.qkv, gelu: false) }
            }
        }
        for sentence in sentences { model.attend(scratch, sentence: sentence, head: head, worker: worker) }
    }
}

/// Activations for one batch of up to `capacity` tokens, reused across calls.
final class BertScratch {
    let capacity: Int
    let tokens: UnsafeMutablePointer<Int32>
    let x, qkv, context, projected, hidden, scores, keys: UnsafeMutablePointer<Float>
    let scoreStride: Int
    let counters: BlockCounters

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
        keys = .allocate(capacity: scoreStride * h.headDimension * threads)
        counters = BlockCounters(blocks: (capacity + PanelProductJob.blockRows - 1) / PanelProductJob.blockRows)
    }

    deinit {
        for p in [x, qkv, context, projected, hidden, scores, keys] { p.deallocate() }
        tokens.deallocate()
    }
}
