@testable import SwitchboardInference

/// Scalar statements of the float order of llama.cpp's CPU kernels (x86, AVX-512 build, as
/// llama-cpp-python 0.3.36 runs them here), for the K-quant products whose order depends on the
/// path. Integer sums are exact, so only where each float rounding happens is spelled out. These
/// were checked bit for bit against llama.cpp's own tensors on the real model (Docs/Inference.md).
enum LlamaOrder {
    /// Quantized activation row `t` as plain integers (undoing the even/odd plane layout).
    struct Q8K {
        var q: [Int32], d: [Float], sums16: [Int32]
        init(_ act: ActivationBuffer, row t: Int) {
            let row = act.row(t), blocks = act.columns / 256
            q = (0..<act.columns).map { j in Int32(row.planes[64 * (j / 64) + ActivationQuantizer.slot(j % 64)]) }
            d = (0..<blocks).map { row.scales[$0] }
            sums16 = (0..<act.columns / 16).map { g in
                (0..<16).reduce(Int32(0)) { $0 + Int32(row.planes[64 * ((16 * g + $1) / 64) + ActivationQuantizer.slot((16 * g + $1) % 64)]) }
            }
        }
    }

    /// Q6_K block b: q (−32…31) per value, the sixteen scales, d.
    static func q6K(_ w: UnsafeRawPointer, block b: Int) -> (q: [Int32], sc: [Int32], d: Float) {
        let blk = w + 210 * b
        let ql = blk.assumingMemoryBound(to: UInt8.self), qh = (blk + 128).assumingMemoryBound(to: UInt8.self)
        let sc = (blk + 192).assumingMemoryBound(to: Int8.self)
        var q = [Int32](repeating: 0, count: 256)
        for n in 0..<2 {
            let l = ql + 64 * n, h = qh + 32 * n
            for i in 0..<32 {
                q[128 * n + i] = Int32((l[i] & 0xF) | ((h[i] & 3) << 4)) - 32
                q[128 * n + i + 32] = Int32((l[i + 32] & 0xF) | (((h[i] >> 2) & 3) << 4)) - 32
                q[128 * n + i + 64] = Int32((l[i] >> 4) | (((h[i] >> 4) & 3) << 4)) - 32
                q[128 * n + i + 96] = Int32((l[i + 32] >> 4) | (((h[i] >> 6) & 3) << 4)) - 32
            }
        }
        return (q, (0..<16).map { Int32(sc[$0]) }, HalfFloat.load(blk, 208))
    }

    /// Q4_K block b: q (0…15) per value, eight scales and mins, d, dmin.
    static func q4K(_ w: UnsafeRawPointer, block b: Int) -> (q: [Int32], sc: [Int32], mn: [Int32], d: Float, dmin: Float) {
        let blk = w + 144 * b
        let qs = (blk + 16).assumingMemoryBound(to: UInt8.self)
        var q = [Int32](repeating: 0, count: 256)
        for c in 0..<4 { for i in 0..<32 { q[64 * c + i] = Int32(qs[32 * c + i] & 0xF); q[64 * c + 32 + i] = Int32(qs[32 * c + i] >> 4) } }
        let sm = (0..<8).map { Dequantize.scaleMinK4($0, blk + 4) }
        return (q, sm.map { Int32($0.scale) }, sm.map { Int32($0.min) }, HalfFloat.load(blk, 0), HalfFloat.load(blk, 2))
    }

    /// Repacked Q4_K GEMV (one row; also the rows after the last full group of 4): per block
    /// acc += isum·(d·d_a), accMin += imin·(dmin·d_a), fused; result acc − accMin.
    /// `perPair`: the 4-row GEMM, which does the same once per 64 values (pair of sub-blocks).
    static func q4K(_ w: UnsafeRawPointer, _ a: Q8K, blocks: Int, perPair: Bool) -> Float {
        var acc: Float = 0, accMin: Float = 0
        for b in 0..<blocks {
            let (q, sc, mn, d, dmin) = q4K(w, block: b)
            let da = a.d[b]
            var isum: Int32 = 0, imin: Int32 = 0
            for g in 0..<8 {
                var s: Int32 = 0
                for j in 0..<32 { s += q[32 * g + j] * a.q[256 * b + 32 * g + j] }
                isum += s * sc[g]
                imin += mn[g] * (a.sums16[16 * b + 2 * g] + a.sums16[16 * b + 2 * g + 1])
                if perPair && g % 2 == 1 {
                    acc.addProduct(Float(isum), d * da); accMin.addProduct(Float(imin), dmin * da)
                    isum = 0; imin = 0
                }
            }
            if !perPair { acc.addProduct(Float(isum), d * da); accMin.addProduct(Float(imin), dmin * da) }
        }
        return acc - accMin
    }

    /// AVX2 `vec_dot_q6_K_q8_K` (batches under 8 rows): lane i of 8 sums the unsigned q·scale·q8 of
    /// values 4i…4i+3 of every 32, less 32·(scale[2i]·bsum[2i] + scale[2i+1]·bsum[2i+1]); one fused
    /// multiply-add per block and lane, then `hsum_float_8`.
    static func q6KVecDot(_ w: UnsafeRawPointer, _ a: Q8K, blocks: Int) -> Float {
        var lanes = [Float](repeating: 0, count: 8)
        for b in 0..<blocks {
            let (q, sc, d) = q6K(w, block: b)
            for i in 0..<8 {
                var s: Int32 = 0
                for c in 0..<8 { for e in (32 * c + 4 * i)..<(32 * c + 4 * i + 4) { s += sc[e / 16] * (q[e] + 32) * a.q[256 * b + e] } }
                s -= 32 * (sc[2 * i] * a.sums16[16 * b + 2 * i] + sc[2 * i + 1] * a.sums16[16 * b + 2 * i + 1])
                lanes[i].addProduct(Float(s), a.d[b] * d)
            }
        }
        let h = (0..<4).map { lanes[$0] + lanes[$0 + 4] }
        return (h[0] + h[2]) + (h[1] + h[3])
    }

    /// Tiled GEMM (batches of 8 rows or more): per block the exact Σ scale·q·q8, converted once,
    /// times d, then fused multiply-add by d_a.
    static func q6KSlab(_ w: UnsafeRawPointer, _ a: Q8K, blocks: Int) -> Float {
        var acc: Float = 0
        for b in 0..<blocks {
            let (q, sc, d) = q6K(w, block: b)
            var s: Int32 = 0
            for e in 0..<256 { s += sc[e / 16] * q[e] * a.q[256 * b + e] }
            acc.addProduct(Float(s) * d, a.d[b])
        }
        return acc
    }
}
