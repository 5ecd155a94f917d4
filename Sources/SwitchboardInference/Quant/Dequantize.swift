/// Scalar reference dequantization (ggml's `dequantize_row_*` formulas). Used for embedding
/// lookups, for the float fallback path and as the oracle the SIMD kernels are tested against.
public enum Dequantize {
    /// Decodes `count` elements (a multiple of the block size) starting at `source` into `output`.
    public static func row(_ format: WeightFormat, _ source: UnsafeRawPointer, count: Int, into output: UnsafeMutablePointer<Float>) {
        let blocks = count / format.blockSize
        for b in 0..<blocks {
            let block = source + b * format.blockBytes
            let out = output + b * format.blockSize
            switch format {
            case .f32: out[0] = block.loadUnaligned(as: Float.self)
            case .f16: out[0] = HalfFloat.float(fromHalf: block.loadUnaligned(as: UInt16.self))
            case .bf16: out[0] = HalfFloat.float(fromBFloat: block.loadUnaligned(as: UInt16.self))
            case .q8_0: q8_0(block, out)
            case .q4_0: q4_0(block, out)
            case .q4_1: q4_1(block, out)
            case .q5_0: q5_0(block, out)
            case .q4_K: q4_K(block, out)
            case .q6_K: q6_K(block, out)
            }
        }
    }

    static func q8_0(_ block: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = HalfFloat.load(block, 0)
        for j in 0..<32 { y[j] = Float(block.load(fromByteOffset: 2 + j, as: Int8.self)) * d }
    }

    static func q4_0(_ block: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = HalfFloat.load(block, 0)
        for j in 0..<16 {
            let q = block.load(fromByteOffset: 2 + j, as: UInt8.self)
            y[j] = Float(Int(q & 0xF) - 8) * d
            y[j + 16] = Float(Int(q >> 4) - 8) * d
        }
    }

    /// q·d + m (the multiply-add GCC fuses in `dequantize_row_q4_1`).
    static func q4_1(_ block: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = HalfFloat.load(block, 0), m = HalfFloat.load(block, 2)
        for j in 0..<16 {
            let byte = block.load(fromByteOffset: 4 + j, as: UInt8.self)
            y[j] = m.addingProduct(Float(byte & 0x0F), d)
            y[j + 16] = m.addingProduct(Float(byte >> 4), d)
        }
    }

    static func q5_0(_ block: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = HalfFloat.load(block, 0)
        let h = block.loadUnaligned(fromByteOffset: 2, as: UInt32.self)
        for j in 0..<16 {
            let q = block.load(fromByteOffset: 6 + j, as: UInt8.self)
            let lo = Int(q & 0xF) | Int((h >> UInt32(j)) & 1) << 4
            let hi = Int(q >> 4) | Int((h >> UInt32(j + 16)) & 1) << 4
            y[j] = Float(lo - 16) * d
            y[j + 16] = Float(hi - 16) * d
        }
    }

    /// The 6-bit scale and min of sub-block `j` of a Q4_K block (`get_scale_min_k4`).
    static func scaleMinK4(_ j: Int, _ q: UnsafeRawPointer) -> (scale: Int, min: Int) {
        func b(_ i: Int) -> Int { Int(q.load(fromByteOffset: i, as: UInt8.self)) }
        if j < 4 { return (b(j) & 63, b(j + 4) & 63) }
        return ((b(j + 4) & 0xF) | ((b(j - 4) >> 6) << 4), (b(j + 4) >> 4) | ((b(j) >> 6) << 4))
    }

    static func q4_K(_ block: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = HalfFloat.load(block, 0), dmin = HalfFloat.load(block, 2)
        for c in 0..<4 {
            let (s0, m0) = scaleMinK4(2 * c, block + 4)
            let (s1, m1) = scaleMinK4(2 * c + 1, block + 4)
            for l in 0..<32 {
                let q = block.load(fromByteOffset: 16 + 32 * c + l, as: UInt8.self)
                y[64 * c + l] = d * Float(s0) * Float(q & 0xF) - dmin * Float(m0)
                y[64 * c + 32 + l] = d * Float(s1) * Float(q >> 4) - dmin * Float(m1)
            }
        }
    }

    static func q6_K(_ block: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = HalfFloat.load(block, 208)
        for n in 0..<2 {
            let ql = block + 64 * n, qh = block + 128 + 32 * n, sc = block + 192 + 8 * n
            func u(_ p: UnsafeRawPointer, _ i: Int) -> Int { Int(p.load(fromByteOffset: i, as: UInt8.self)) }
            func s(_ i: Int) -> Float { Float(sc.load(fromByteOffset: i, as: Int8.self)) }
            for l in 0..<32 {
                let isc = l / 16, h = u(qh, l)
                let q1 = (u(ql, l) & 0xF) | ((h & 3) << 4)
                let q2 = (u(ql, l + 32) & 0xF) | (((h >> 2) & 3) << 4)
                let q3 = (u(ql, l) >> 4) | (((h >> 4) & 3) << 4)
                let q4 = (u(ql, l + 32) >> 4) | (((h >> 6) & 3) << 4)
                y[128 * n + l] = d * s(isc) * Float(q1 - 32)
                y[128 * n + l + 32] = d * s(isc + 2) * Float(q2 - 32)
                y[128 * n + l + 64] = d * s(isc + 4) * Float(q3 - 32)
                y[128 * n + l + 96] = d * s(isc + 6) * Float(q4 - 32)
            }
        }
    }
}
