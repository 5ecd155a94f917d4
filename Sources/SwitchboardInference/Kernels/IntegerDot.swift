/// Shared SIMD building blocks for the integer dot products.
///
/// Weights are unpacked into two `SIMD16<Int16>` holding the even- and odd-indexed values of a
/// 32-value group, matching `ActivationBuffer`'s layout. Byte-level work is done in 32-bit lanes
/// (Swift SIMD lowers 8/16-bit shifts and conversions to scalar loops; 32-bit shifts, masks and
/// 16-bit multiplies become single AVX instructions).
enum IntegerDot {
    // Computed, not stored: a `static let` is a lazily initialized global whose `swift_once` check
    // in the inner loop clobbers every vector register.
    @inline(__always) static var lowBytes: SIMD8<UInt32> { SIMD8(repeating: 0x00FF_00FF) }
    @inline(__always) static var lowNibbles: SIMD8<UInt32> { SIMD8(repeating: 0x0F0F_0F0F) }

    /// Even/odd Int16 lanes of 32 unsigned bytes, each minus `offset`.
    @inline(__always)
    static func split(_ v: SIMD8<UInt32>, offset: Int16) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let even = unsafeBitCast(v & lowBytes, to: SIMD16<Int16>.self) &- offset
        let odd = unsafeBitCast((v &>> 8) & lowBytes, to: SIMD16<Int16>.self) &- offset
        return (even, odd)
    }

    /// Even/odd Int16 lanes of 32 signed bytes (sign-extended by xor/subtract).
    @inline(__always)
    static func splitSigned(_ v: SIMD8<UInt32>) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let bias: SIMD8<UInt32> = SIMD8(repeating: 0x0080_0080)
        let even = unsafeBitCast((v & lowBytes) ^ bias, to: SIMD16<Int16>.self) &- 0x80
        let odd = unsafeBitCast(((v &>> 8) & lowBytes) ^ bias, to: SIMD16<Int16>.self) &- 0x80
        return (even, odd)
    }

    /// Σ w·a over one 32-value group, as 8 Int32 partial sums (lane i covers values 4i..<4i+4).
    /// Exact while |w·a| pairs fit in Int16 (|w| ≤ 127, |a| ≤ 127).
    @inline(__always)
    static func group(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ a: UnsafePointer<Int16>) -> SIMD8<Int32> {
        let raw = UnsafeRawPointer(a)
        let ae = raw.loadUnaligned(as: SIMD16<Int16>.self)
        let ao = raw.loadUnaligned(fromByteOffset: 32, as: SIMD16<Int16>.self)
        let p = unsafeBitCast(w.0 &* ae &+ w.1 &* ao, to: SIMD8<Int32>.self)
        return ((p &<< 16) &>> 16) &+ (p &>> 16)
    }

    /// Exact Int32 → Float for |x| < 2^22 without a (scalarized) SIMD conversion.
    @inline(__always)
    static func float(_ v: SIMD8<Int32>) -> SIMD8<Float> {
        unsafeBitCast(v &+ 0x4B40_0000, to: SIMD8<Float>.self) - 12_582_912
    }
}
