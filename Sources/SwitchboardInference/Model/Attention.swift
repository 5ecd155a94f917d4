import Foundation

/// Scaled dot-product attention of one query head over the cached keys/values (causal, with an
/// optional sliding window), grouped-query: several query heads share one KV head.
///
/// The arithmetic follows llama.cpp's non-flash CPU path step by step (fp16 q/k/v/probabilities,
/// fused accumulation in position order in 16 or 8 lanes by `ReferenceBuild` (`AttentionLanes`),
/// the build's reduction tree, a double softmax sum): this model's logits move by tenths under mere reordering of float sums, so
/// reproducing the order is what keeps greedy output identical to the reference.
enum Attention {
    /// - Parameters:
    ///   - query: one head's query, already normed, rotated, scaled and rounded to fp16.
    ///   - kvHead: which KV head of each cached position to read.
    ///   - window: 0 for full causal attention, else only the last `window` positions are visible.
    ///   - scores: scratch of at least `position + 32` floats.
    ///   - singleToken: the forward batch holds one token. llama.cpp then skips tinyBLAS (it serves
    ///     only n ≥ 2) and both products go through `ggml_vec_dot_f16`, whose four interleaved
    ///     accumulators sum in a different order (see `Attention+SingleToken.swift`).
    ///   - build: whose lane order to follow (`ReferenceBuild`).
    static func head(query: UnsafePointer<Float>, layer: KVCache.Layer, width: Int, kvHead: Int, headLength: Int,
                     position: Int, window: Int, singleToken: Bool = false, build: ReferenceBuild = .avx512,
                     scores: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let single = usesSingleTokenOrder(singleToken: singleToken, headLength: headLength)
        switch (build, single) {
        case (.avx512, false): tiled(AVX512Lanes.self, query, layer, width, kvHead, headLength, position, window, scores, output)
        case (.avx2, false): tiled(AVX2Lanes.self, query, layer, width, kvHead, headLength, position, window, scores, output)
        case (.avx512, true): singleTokenHead(AVX512Lanes.self, query, layer, width, kvHead, headLength, position, window, scores, output)
        case (.avx2, true): singleTokenHead(AVX2Lanes.self, query, layer, width, kvHead, headLength, position, window, scores, output)
        }
    }

    /// Whether `head` follows `ggml_vec_dot_f16`'s order (else tinyBLAS's, `tiled`).
    static func usesSingleTokenOrder(singleToken: Bool, headLength: Int) -> Bool { singleToken && headLength % 64 == 0 }

    /// tinyBLAS's order (batches of two tokens or more): one accumulator per product.
    @inline(__always)
    static func tiled<L: AttentionLanes>(_ lanes: L.Type, _ query: UnsafePointer<Float>, _ layer: KVCache.Layer, _ width: Int, _ kvHead: Int,
                                         _ headLength: Int, _ position: Int, _ window: Int,
                                         _ scores: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<Float>) {
        let first = window > 0 ? max(0, position - window + 1) : 0
        // Probabilities are laid out from the 16-aligned chunk holding `first`, zeros outside the window.
        let base = first & ~15
        let end = (position + 16) & ~15
        var maxScore = -Float.infinity
        // Four positions at a time: independent accumulation chains overlap (each keeps its order).
        var p = first
        var slot = layer.slot(p)
        let headOffset = kvHead * headLength
        while p + 4 <= position + 1 {
            let s1 = layer.slot(slot, advancedBy: 1), s2 = layer.slot(s1, advancedBy: 1), s3 = layer.slot(s2, advancedBy: 1)
            let k0 = layer.keys + slot * width + headOffset, k1 = layer.keys + s1 * width + headOffset
            let k2 = layer.keys + s2 * width + headOffset, k3 = layer.keys + s3 * width + headOffset
            let s = dotx4(L.self, query, k0, k1, k2, k3, count: headLength)
            for i in 0..<4 {
                scores[p + i - base] = s[i]
                maxScore = max(maxScore, s[i])
            }
            p += 4; slot = layer.slot(s3, advancedBy: 1)
        }
        while p <= position {
            let s = dot(L.self, query, layer.keys + slot * width + headOffset, count: headLength)
            scores[p - base] = s
            maxScore = max(maxScore, s)
            p += 1; slot = layer.slot(slot, advancedBy: 1)
        }
        softmax(L.self, scores, first: first, base: base, position: position, end: end, maxScore: maxScore)
        // out[d] = Σ_p v[p][d]·prob[p] with values stored transposed (dimension-major).
        let probs = UnsafeRawPointer(scores)
        let values = layer.values + kvHead * headLength * layer.slots
        let step = L.width
        // Four dimensions per pass share each probability load; each keeps its own accumulator.
        var d = 0
        while d + 4 <= headLength {
            let r0 = UnsafeRawPointer(values + d * layer.slots), r1 = UnsafeRawPointer(values + (d + 1) * layer.slots)
            let r2 = UnsafeRawPointer(values + (d + 2) * layer.slots), r3 = UnsafeRawPointer(values + (d + 3) * layer.slots)
            var a0 = L.Vector(), a1 = L.Vector(), a2 = L.Vector(), a3 = L.Vector()
            var chunk = base, slot = layer.slot(base)
            while chunk < end {
                let pr = L.load(probs, 4 * (chunk - base))
                let offset = 2 * slot
                slot = layer.slot(slot, advancedBy: step)
                a0.addProduct(L.loadHalves(r0, offset), pr)
                a1.addProduct(L.loadHalves(r1, offset), pr)
                a2.addProduct(L.loadHalves(r2, offset), pr)
                a3.addProduct(L.loadHalves(r3, offset), pr)
                chunk += step
            }
            output[d] = L.reduce(a0); output[d + 1] = L.reduce(a1); output[d + 2] = L.reduce(a2); output[d + 3] = L.reduce(a3)
            d += 4
        }
        while d < headLength {
            let row = UnsafeRawPointer(values + d * layer.slots)
            var acc = L.Vector()
            var chunk = base, slot = layer.slot(base)
            while chunk < end {
                acc.addProduct(L.loadHalves(row, 2 * slot), L.load(probs, 4 * (chunk - base)))
                chunk += step; slot = layer.slot(slot, advancedBy: step)
            }
            output[d] = L.reduce(acc)
            d += 1
        }
    }

    /// ggml_vec_soft_max_f32 over the scores laid out from `base` (16-aligned): a vector at a time
    /// through ggml_v_expf, each chunk reduced and summed in double; masked slots are exactly zero;
    /// then the probabilities are scaled by 1/sum and rounded to fp16 (the KQV product's input type).
    @inline(__always)
    static func softmax<L: AttentionLanes>(_ lanes: L.Type, _ scores: UnsafeMutablePointer<Float>, first: Int, base: Int, position: Int,
                                           end: Int, maxScore: Float) {
        for i in 0..<(first - base) { scores[i] = -.infinity }
        for p in (position + 1)..<end { scores[p - base] = -.infinity }
        var sum: Double = 0
        let raw = UnsafeMutableRawPointer(scores)
        var chunk = 0
        while chunk < end - base {
            let e = VectorMath.exp(raw.loadUnaligned(fromByteOffset: 4 * chunk, as: SIMD16<Float>.self) - SIMD16(repeating: maxScore), L.build)
            raw.storeBytes(of: e, toByteOffset: 4 * chunk, as: SIMD16<Float>.self)
            if L.width == 16 {
                sum += Double(L.reduce(L.load(raw, 4 * chunk)))
            } else {
                sum += Double(L.reduce(L.load(raw, 4 * chunk)))
                sum += Double(L.reduce(L.load(raw, 4 * chunk + 32)))
            }
            chunk += 16
        }
        let scale = Float(1 / sum)
        for i in 0..<(end - base) { scores[i] = Float(Float16(scores[i] * scale)) }
    }

    /// One accumulator over vector-sized chunks, then the build's reduction.
    @inline(__always)
    static func dot<L: AttentionLanes>(_ lanes: L.Type, _ a: UnsafePointer<Float>, _ b: UnsafePointer<KVCache.Cell>, count: Int) -> Float {
        var acc = L.Vector()
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var i = 0
        while i < count {
            acc.addProduct(L.load(ra, 4 * i), L.loadHalves(rb, 2 * i))
            i += L.width
        }
        return L.reduce(acc)
    }

    @inline(__always)
    static func dotx4<L: AttentionLanes>(_ lanes: L.Type, _ q: UnsafePointer<Float>, _ k0: UnsafePointer<KVCache.Cell>,
                                         _ k1: UnsafePointer<KVCache.Cell>,
                                         _ k2: UnsafePointer<KVCache.Cell>, _ k3: UnsafePointer<KVCache.Cell>, count: Int) -> SIMD4<Float> {
        var a0 = L.Vector(), a1 = L.Vector(), a2 = L.Vector(), a3 = L.Vector()
        let rq = UnsafeRawPointer(q)
        let r0 = UnsafeRawPointer(k0), r1 = UnsafeRawPointer(k1), r2 = UnsafeRawPointer(k2), r3 = UnsafeRawPointer(k3)
        var i = 0
        while i < count {
            let x = L.load(rq, 4 * i)
            a0.addProduct(x, L.loadHalves(r0, 2 * i))
            a1.addProduct(x, L.loadHalves(r1, 2 * i))
            a2.addProduct(x, L.loadHalves(r2, 2 * i))
            a3.addProduct(x, L.loadHalves(r3, 2 * i))
            i += L.width
        }
        return SIMD4(L.reduce(a0), L.reduce(a1), L.reduce(a2), L.reduce(a3))
    }
}
