/// The accumulator shape of one reference build's attention arithmetic (`ReferenceBuild`): tinyBLAS
/// and `ggml_vec_dot_f16` accumulate f16 products in 16-lane vectors on AVX-512 and 8-lane ones on
/// AVX2, and reduce them differently; the softmax sums one such vector per chunk.
protocol AttentionLanes {
    associatedtype Vector: SIMD where Vector.Scalar == Float
    static var build: ReferenceBuild { get }
    /// tinyBLAS's `hsum` and the softmax chunk sum of one accumulator.
    static func reduce(_ v: Vector) -> Float
    /// `ggml_vec_dot_f16`'s `GGML_F32xN_REDUCE` of its four accumulators.
    static func reduce(_ a: Vector, _ b: Vector, _ c: Vector, _ d: Vector) -> Float
    /// One vector of fp16 cache cells at `byteOffset`, widened exactly (`vcvtph2ps`).
    static func loadHalves(_ p: UnsafeRawPointer, _ byteOffset: Int) -> Vector
}

extension AttentionLanes {
    static var width: Int { Vector.scalarCount }

    @inline(__always)
    static func load(_ p: UnsafeRawPointer, _ offset: Int) -> Vector { p.loadUnaligned(fromByteOffset: offset, as: Vector.self) }
}

enum AVX512Lanes: AttentionLanes {
    static var build: ReferenceBuild { .avx512 }

    /// GCC's `_mm512_reduce_add_ps`: 256-bit halves, 128-bit halves, then pairs.
    @inline(__always)
    static func reduce(_ v: SIMD16<Float>) -> Float {
        let t3 = v.highHalf + v.lowHalf
        let t6 = t3.highHalf + t3.lowHalf
        return (t6[0] + t6[2]) + (t6[1] + t6[3])
    }

    @inline(__always)
    static func reduce(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>, _ d: SIMD16<Float>) -> Float { reduce((a + c) + (b + d)) }

    @inline(__always)
    static func loadHalves(_ p: UnsafeRawPointer, _ byteOffset: Int) -> SIMD16<Float> {
        SIMD16(lowHalf: AVX2Lanes.loadHalves(p, byteOffset), highHalf: AVX2Lanes.loadHalves(p, byteOffset + 16))
    }
}

enum AVX2Lanes: AttentionLanes {
    static var build: ReferenceBuild { .avx2 }

    /// `hsum` of a 256-bit vector: 128-bit halves, then `movehl` and `movehdup` pairs.
    @inline(__always)
    static func reduce(_ v: SIMD8<Float>) -> Float {
        let t = v.highHalf + v.lowHalf
        return (t[0] + t[2]) + (t[1] + t[3])
    }

    /// `GGML_F32x8_REDUCE`: pairs of accumulators, 128-bit halves, then two `hadd`s (adjacent pairs).
    @inline(__always)
    static func reduce(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>) -> Float {
        let x = (a + c) + (b + d)
        let t = x.lowHalf + x.highHalf
        return (t[0] + t[1]) + (t[2] + t[3])
    }

    /// Lane by lane, which LLVM turns into one `vcvtph2ps` (a whole-vector conversion initializer is a
    /// generic call).
    @inline(__always)
    static func loadHalves(_ p: UnsafeRawPointer, _ byteOffset: Int) -> SIMD8<Float> {
        let h = p.loadUnaligned(fromByteOffset: byteOffset, as: SIMD8<Float16>.self)
        return SIMD8(Float(h[0]), Float(h[1]), Float(h[2]), Float(h[3]), Float(h[4]), Float(h[5]), Float(h[6]), Float(h[7]))
    }
}
