/// Shared SIMD building blocks for the integer dot products.
///
/// Weights are unpacked, 64 values (two 32-value groups) at a time, into two `SIMD32<Int16>` (one
/// 512-bit register each) holding the even- and odd-indexed values, matching `ActivationBuffer`'s
/// layout. Byte-level work is done in 32-bit lanes: Swift SIMD lowers 8/16-bit shifts and lane
/// conversions to scalar loops, while 32-bit shifts, masks and 16-bit multiplies become single
/// AVX-512 instructions.
enum IntegerDot {
    // Computed, not stored: a `static let` is a lazily initialized global whose `swift_once` check
    // in an inner loop clobbers every vector register.
    @inline(__always) static var lowBytes: SIMD16<UInt32> { SIMD16(repeating: 0x00FF_00FF) }
    @inline(__always) static var lowNibbles: SIMD8<UInt32> { SIMD8(repeating: 0x0F0F_0F0F) }

    /// Every Int16 lane = `value`. Built through 32-bit lanes: a 32-lane Int16 splat from a scalar
    /// is lowered element by element.
    @inline(__always)
    static func splat(_ value: Int16) -> SIMD32<Int16> {
        let half = UInt32(UInt16(bitPattern: value))
        return unsafeBitCast(SIMD16<UInt32>(repeating: half | half << 16), to: SIMD32<Int16>.self)
    }

    /// Even/odd Int16 lanes of 64 unsigned bytes, each minus `offset`.
    @inline(__always)
    static func split(_ v: SIMD16<UInt32>, offset: Int16) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let o = splat(offset)
        let even = unsafeBitCast(v & lowBytes, to: SIMD32<Int16>.self) &- o
        let odd = unsafeBitCast((v &>> 8) & lowBytes, to: SIMD32<Int16>.self) &- o
        return (even, odd)
    }

    /// Even/odd Int16 lanes of 64 signed bytes (sign-extended by xor/subtract).
    @inline(__always)
    static func splitSigned(_ v: SIMD16<UInt32>) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let bias = SIMD16<UInt32>(repeating: 0x0080_0080), o = splat(0x80)
        let even = unsafeBitCast((v & lowBytes) ^ bias, to: SIMD32<Int16>.self) &- o
        let odd = unsafeBitCast(((v &>> 8) & lowBytes) ^ bias, to: SIMD32<Int16>.self) &- o
        return (even, odd)
    }

    /// Σ w·a over 64 values as 16 Int32 partial sums: lane i covers values 4i..<4i+4, so lanes 0..<8
    /// are the first 32-value group and lanes 8..<16 the second. Exact while |w|, |a| ≤ 127.
    @inline(__always)
    static func pair(_ w: (SIMD32<Int16>, SIMD32<Int16>), _ a: UnsafePointer<Int16>) -> SIMD16<Int32> {
        let raw = UnsafeRawPointer(a)
        let ae = raw.loadUnaligned(as: SIMD32<Int16>.self)
        let ao = raw.loadUnaligned(fromByteOffset: 64, as: SIMD32<Int16>.self)
        let p = unsafeBitCast(w.0 &* ae &+ w.1 &* ao, to: SIMD16<Int32>.self)
        return ((p &<< 16) &>> 16) &+ (p &>> 16)
    }

    /// Exact Int32 → Float for |x| < 2^22 without a (scalarized) SIMD conversion.
    @inline(__always)
    static func float(_ v: SIMD16<Int32>) -> SIMD16<Float> {
        unsafeBitCast(v &+ 0x4B40_0000, to: SIMD16<Float>.self) - 12_582_912
    }

    /// Exact Float → Int32 for integral |x| < 2^22 (the inverse of `float`).
    @inline(__always)
    static func int(_ v: SIMD16<Float>) -> SIMD16<Int32> {
        unsafeBitCast(v + 12_582_912, to: SIMD16<Int32>.self) &- 0x4B40_0000
    }

    /// Exact Int32 → Float for any Int32 (rounded once, like `vcvtdq2ps`): high and low 16 bits
    /// converted exactly, then one rounding add.
    @inline(__always)
    static func floatWide(_ v: SIMD8<Int32>) -> SIMD8<Float> {
        let high = unsafeBitCast((v &>> 16) &+ 0x4B40_0000, to: SIMD8<Float>.self) - 12_582_912
        let low = unsafeBitCast((v & 0xFFFF) &+ 0x4B40_0000, to: SIMD8<Float>.self) - 12_582_912
        return high * 65536 + low
    }

    /// ggml's `hsum_float_8`: (l0+h0 + l2+h2) + (l1+h1 + l3+h3). Matching llama.cpp's reduction
    /// order keeps our results bit-identical to its dot products (the model is sensitive to it).
    @inline(__always)
    static func sum8(_ v: SIMD8<Float>) -> Float {
        let r = v.highHalf + v.lowHalf
        return (r[0] + r[2]) + (r[1] + r[3])
    }

    /// Tree reduction (the stdlib's `sum()` adds lanes one by one).
    @inline(__always)
    static func sum(_ v: SIMD16<Float>) -> Float {
        let a = v.lowHalf + v.highHalf
        let b = a.lowHalf + a.highHalf
        let c = b.lowHalf + b.highHalf
        return c[0] + c[1]
    }

    @inline(__always)
    static func sum(_ v: SIMD16<Int32>) -> Int32 {
        let a = v.lowHalf &+ v.highHalf
        let b = a.lowHalf &+ a.highHalf
        let c = b.lowHalf &+ b.highHalf
        return c[0] &+ c[1]
    }

    /// 8 copies of `a` then 8 copies of `b`.
    @inline(__always)
    static func halves<T: SIMDScalar>(_ a: T, _ b: T) -> SIMD16<T> {
        SIMD16(lowHalf: SIMD8(repeating: a), highHalf: SIMD8(repeating: b))
    }
}
