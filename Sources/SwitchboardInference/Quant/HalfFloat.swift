/// Scalar fp16 / bf16 conversions (IEEE binary16 and bfloat16 bit patterns, little-endian in files).
enum HalfFloat {
    @inline(__always)
    static func float(fromHalf bits: UInt16) -> Float { Float(Float16(bitPattern: bits)) }

    @inline(__always)
    static func half(from value: Float) -> UInt16 { Float16(value).bitPattern }

    @inline(__always)
    static func float(fromBFloat bits: UInt16) -> Float { Float(bitPattern: UInt32(bits) << 16) }

    /// Round-to-nearest-even, NaN kept quiet, as ggml does.
    static func bfloat(from value: Float) -> UInt16 {
        let u = value.bitPattern
        if value.isNaN { return UInt16(truncatingIfNeeded: (u >> 16) | 64) }
        return UInt16(truncatingIfNeeded: (u &+ 0x7FFF &+ ((u >> 16) & 1)) >> 16)
    }

    /// Reads an fp16 at `offset` bytes (blocks are only 2-byte aligned).
    @inline(__always)
    static func load(_ base: UnsafeRawPointer, _ offset: Int) -> Float {
        Float(base.loadUnaligned(fromByteOffset: offset, as: Float16.self))
    }
}
