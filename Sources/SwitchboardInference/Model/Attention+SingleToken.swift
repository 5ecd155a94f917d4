import Foundation

/// One-token forward passes (decode), in llama.cpp's order for that case.
///
/// With one query row `llamafile_sgemm` declines (`n < 2`), so KQ and KQV fall back to
/// `ggml_vec_dot_f16`: on AVX-512 it keeps four 16-lane accumulators, element block `i` (16 values)
/// going to accumulator `i % 4`, then adds them as `(a0 + a2) + (a1 + a3)` before the 512-bit
/// reduction. The KQV dot runs over the padded KV cells (a multiple of 256) in cell order, so a
/// position's accumulator is fixed by its absolute index; masked cells add exact zeros.
extension Attention {
    static func singleTokenHead(query: UnsafePointer<Float>, layer: KVCache.Layer, width: Int, kvHead: Int, headLength: Int,
                                position: Int, window: Int, scores: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let first = window > 0 ? max(0, position - window + 1) : 0
        let base = first & ~15
        let end = (position + 16) & ~15
        var maxScore = -Float.infinity
        var p = first
        while p <= position {
            let key = layer.keys + layer.slot(p) * width + kvHead * headLength
            let s = dot4(query, key, count: headLength)
            scores[p - base] = s
            maxScore = max(maxScore, s)
            p += 1
        }
        softmax(scores, first: first, base: base, position: position, end: end, maxScore: maxScore)
        let probs = UnsafeRawPointer(scores)
        let values = layer.values + kvHead * headLength * layer.slots
        var d = 0
        while d + 2 <= headLength {
            let r0 = UnsafeRawPointer(values + d * layer.slots), r1 = UnsafeRawPointer(values + (d + 1) * layer.slots)
            var x0 = SIMD16<Float>(), x1 = SIMD16<Float>(), x2 = SIMD16<Float>(), x3 = SIMD16<Float>()
            var y0 = SIMD16<Float>(), y1 = SIMD16<Float>(), y2 = SIMD16<Float>(), y3 = SIMD16<Float>()
            var chunk = base
            while chunk < end {
                let pr = probs.loadUnaligned(fromByteOffset: 4 * (chunk - base), as: SIMD16<Float>.self)
                let offset = 4 * layer.slot(chunk)
                let v0 = r0.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                let v1 = r1.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                switch (chunk >> 4) & 3 {
                case 0: x0.addProduct(v0, pr); y0.addProduct(v1, pr)
                case 1: x1.addProduct(v0, pr); y1.addProduct(v1, pr)
                case 2: x2.addProduct(v0, pr); y2.addProduct(v1, pr)
                default: x3.addProduct(v0, pr); y3.addProduct(v1, pr)
                }
                chunk += 16
            }
            output[d] = reduce((x0 + x2) + (x1 + x3))
            output[d + 1] = reduce((y0 + y2) + (y1 + y3))
            d += 2
        }
    }

    /// `ggml_vec_dot_f16` for a length that is a multiple of 64.
    @inline(__always)
    static func dot4(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var s0 = SIMD16<Float>(), s1 = SIMD16<Float>(), s2 = SIMD16<Float>(), s3 = SIMD16<Float>()
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var i = 0
        while i < count {
            s0.addProduct(ra.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self), rb.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self))
            s1.addProduct(ra.loadUnaligned(fromByteOffset: 4 * i + 64, as: SIMD16<Float>.self), rb.loadUnaligned(fromByteOffset: 4 * i + 64, as: SIMD16<Float>.self))
            s2.addProduct(ra.loadUnaligned(fromByteOffset: 4 * i + 128, as: SIMD16<Float>.self), rb.loadUnaligned(fromByteOffset: 4 * i + 128, as: SIMD16<Float>.self))
            s3.addProduct(ra.loadUnaligned(fromByteOffset: 4 * i + 192, as: SIMD16<Float>.self), rb.loadUnaligned(fromByteOffset: 4 * i + 192, as: SIMD16<Float>.self))
            i += 64
        }
        return reduce((s0 + s2) + (s1 + s3))
    }
}
