import Foundation

/// Scaled dot-product attention of one query head over the cached keys/values (causal, with an
/// optional sliding window), grouped-query: several query heads share one KV head.
///
/// The arithmetic follows llama.cpp's non-flash CPU path step by step (fp16 q/k/v/probabilities,
/// 16-lane fused accumulation in position order, GCC's `_mm512_reduce_add_ps` tree, a double
/// softmax sum): this model's logits move by tenths under mere reordering of float sums, so
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
    static func head(query: UnsafePointer<Float>, layer: KVCache.Layer, width: Int, kvHead: Int, headLength: Int,
                     position: Int, window: Int, singleToken: Bool = false,
                     scores: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        if singleToken && headLength % 64 == 0 {
            singleTokenHead(query: query, layer: layer, width: width, kvHead: kvHead, headLength: headLength,
                            position: position, window: window, scores: scores, output: output)
            return
        }
        let first = window > 0 ? max(0, position - window + 1) : 0
        // Probabilities are laid out from the 16-aligned chunk holding `first`, zeros outside the window.
        let base = first & ~15
        let end = (position + 16) & ~15
        var maxScore = -Float.infinity
        // Four positions at a time: independent accumulation chains overlap (each keeps its order).
        var p = first
        while p + 4 <= position + 1 {
            let k0 = layer.keys + layer.slot(p) * width + kvHead * headLength
            let k1 = layer.keys + layer.slot(p + 1) * width + kvHead * headLength
            let k2 = layer.keys + layer.slot(p + 2) * width + kvHead * headLength
            let k3 = layer.keys + layer.slot(p + 3) * width + kvHead * headLength
            let s = dot16x4(query, k0, k1, k2, k3, count: headLength)
            for i in 0..<4 {
                scores[p + i - base] = s[i]
                maxScore = max(maxScore, s[i])
            }
            p += 4
        }
        while p <= position {
            let key = layer.keys + layer.slot(p) * width + kvHead * headLength
            let s = dot16(query, key, count: headLength)
            scores[p - base] = s
            maxScore = max(maxScore, s)
            p += 1
        }
        softmax(scores, first: first, base: base, position: position, end: end, maxScore: maxScore)
        // out[d] = Σ_p v[p][d]·prob[p] with values stored transposed (dimension-major).
        let probs = UnsafeRawPointer(scores)
        let values = layer.values + kvHead * headLength * layer.slots
        // Four dimensions per pass share each probability load; each keeps its own accumulator.
        var d = 0
        while d + 4 <= headLength {
            let r0 = UnsafeRawPointer(values + d * layer.slots), r1 = UnsafeRawPointer(values + (d + 1) * layer.slots)
            let r2 = UnsafeRawPointer(values + (d + 2) * layer.slots), r3 = UnsafeRawPointer(values + (d + 3) * layer.slots)
            var a0 = SIMD16<Float>(), a1 = SIMD16<Float>(), a2 = SIMD16<Float>(), a3 = SIMD16<Float>()
            var chunk = base
            while chunk < end {
                let p = probs.loadUnaligned(fromByteOffset: 4 * (chunk - base), as: SIMD16<Float>.self)
                let offset = 4 * layer.slot(chunk)
                a0.addProduct(r0.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self), p)
                a1.addProduct(r1.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self), p)
                a2.addProduct(r2.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self), p)
                a3.addProduct(r3.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self), p)
                chunk += 16
            }
            output[d] = reduce(a0); output[d + 1] = reduce(a1); output[d + 2] = reduce(a2); output[d + 3] = reduce(a3)
            d += 4
        }
        while d < headLength {
            let row = UnsafeRawPointer(values + d * layer.slots)
            var acc = SIMD16<Float>()
            var chunk = base
            while chunk < end {
                let v = row.loadUnaligned(fromByteOffset: 4 * layer.slot(chunk), as: SIMD16<Float>.self)
                acc.addProduct(v, probs.loadUnaligned(fromByteOffset: 4 * (chunk - base), as: SIMD16<Float>.self))
                chunk += 16
            }
            output[d] = reduce(acc)
            d += 1
        }
    }

    /// ggml_vec_soft_max_f32 over the scores laid out from `base` (16-aligned): 16 lanes at a time
    /// through ggml_v_expf, each chunk reduced and summed in double; masked slots are exactly zero;
    /// then the probabilities are scaled by 1/sum and rounded to fp16 (the KQV product's input type).
    @inline(__always)
    static func softmax(_ scores: UnsafeMutablePointer<Float>, first: Int, base: Int, position: Int, end: Int, maxScore: Float) {
        for i in 0..<(first - base) { scores[i] = -.infinity }
        for p in (position + 1)..<end { scores[p - base] = -.infinity }
        var sum: Double = 0
        let raw = UnsafeMutableRawPointer(scores)
        var chunk = 0
        while chunk < end - base {
            let x = raw.loadUnaligned(fromByteOffset: 4 * chunk, as: SIMD16<Float>.self) - SIMD16(repeating: maxScore)
            let e = exp(x)
            raw.storeBytes(of: e, toByteOffset: 4 * chunk, as: SIMD16<Float>.self)
            sum += Double(reduce(e))
            chunk += 16
        }
        let scale = Float(1 / sum)
        for i in 0..<(end - base) { scores[i] = Float(Float16(scores[i] * scale)) }
    }

    /// ggml's AVX-512 `ggml_v_expf` (a polynomial exp, ≤ 1.5 ulp), reproduced operation by
    /// operation for arguments ≤ 0 (softmax); arguments below −103 give 0 as there.
    @inline(__always)
    static func exp(_ x: SIMD16<Float>) -> SIMD16<Float> {
        let r = SIMD16<Float>(repeating: 0x1.8p23)
        let z = r.addingProduct(x, SIMD16(repeating: 0x1.715476p+0))
        let n = z - r
        let b0 = x.addingProduct(-n, SIMD16(repeating: 0x1.62e4p-1))
        let bb = b0.addingProduct(-n, SIMD16(repeating: 0x1.7f7d1cp-20))
        let u = bb * bb
        let p54 = SIMD16<Float>(repeating: 0x1.573e2ep-5).addingProduct(SIMD16(repeating: 0x1.0e4020p-7), bb)
        let p32 = SIMD16<Float>(repeating: 0x1.fffdb6p-2).addingProduct(SIMD16(repeating: 0x1.555e66p-3), bb)
        let p10 = SIMD16<Float>(repeating: 1).addingProduct(SIMD16(repeating: 0x1.ffffecp-1), bb)
        let j = p10.addingProduct(p32.addingProduct(p54, u), u)
        // 2^n from the integer sitting in z's low mantissa bits (valid for n ≥ −126).
        let k = unsafeBitCast(z, to: SIMD16<Int32>.self) &- 0x4B40_0000
        let clamped = k.replacing(with: -127, where: k .< -126)
        let power = unsafeBitCast((clamped &+ 127) &<< 23, to: SIMD16<Float>.self)
        return (j * power).replacing(with: 0, where: x .< -103.97)
    }

    /// One 16-lane accumulator over 16-value chunks, then the 512-bit reduction.
    @inline(__always)
    static func dot16(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var acc = SIMD16<Float>()
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var i = 0
        while i < count {
            acc.addProduct(ra.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self), rb.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self))
            i += 16
        }
        return reduce(acc)
    }

    @inline(__always)
    static func dot16x4(_ q: UnsafePointer<Float>, _ k0: UnsafePointer<Float>, _ k1: UnsafePointer<Float>, _ k2: UnsafePointer<Float>,
                        _ k3: UnsafePointer<Float>, count: Int) -> SIMD4<Float> {
        var a0 = SIMD16<Float>(), a1 = SIMD16<Float>(), a2 = SIMD16<Float>(), a3 = SIMD16<Float>()
        let rq = UnsafeRawPointer(q)
        let r0 = UnsafeRawPointer(k0), r1 = UnsafeRawPointer(k1), r2 = UnsafeRawPointer(k2), r3 = UnsafeRawPointer(k3)
        var i = 0
        while i < count {
            let x = rq.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self)
            a0.addProduct(x, r0.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self))
            a1.addProduct(x, r1.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self))
            a2.addProduct(x, r2.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self))
            a3.addProduct(x, r3.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self))
            i += 16
        }
        return SIMD4(reduce(a0), reduce(a1), reduce(a2), reduce(a3))
    }

    /// GCC's `_mm512_reduce_add_ps`: 256-bit halves, 128-bit halves, then pairs.
    @inline(__always)
    static func reduce(_ v: SIMD16<Float>) -> Float {
        let t3 = v.highHalf + v.lowHalf
        let t6 = t3.highHalf + t3.lowHalf
        return (t6[0] + t6[2]) + (t6[1] + t6[3])
    }
}
