/// How one 32-value block format is unpacked: a type parameter, so every kernel is specialized per
/// format (a runtime switch inside the block loop costs registers and branches).
protocol SmallBlockCodec {
    static var blockBytes: Int { get }
    /// Blocks `b` and `b + 1` starting at `block` as even/odd Int16 lanes.
    static func unpack(_ block: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>)
}

enum Q8_0Codec: SmallBlockCodec {
    static var blockBytes: Int { 34 }
    @inline(__always)
    static func unpack(_ block: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) {
        IntegerDot.splitSigned(SIMD16(lowHalf: block.loadUnaligned(fromByteOffset: 2, as: SIMD8<UInt32>.self),
                                      highHalf: block.loadUnaligned(fromByteOffset: 36, as: SIMD8<UInt32>.self)))
    }
}

enum Q4_0Codec: SmallBlockCodec {
    static var blockBytes: Int { 18 }
    @inline(__always)
    static func unpack(_ block: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) {
        IntegerDot.split(SIMD16(lowHalf: SmallBlockDot.nibbles(block + 2), highHalf: SmallBlockDot.nibbles(block + 20)), offset: 8)
    }
}

enum Q5_0Codec: SmallBlockCodec {
    static var blockBytes: Int { 22 }
    @inline(__always)
    static func unpack(_ block: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let low = SIMD16(lowHalf: SmallBlockDot.nibbles(block + 6), highHalf: SmallBlockDot.nibbles(block + 28))
        let high = SmallBlockDot.highBits(block.loadUnaligned(fromByteOffset: 2, as: UInt32.self), block.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
        return IntegerDot.split(low | high, offset: 16)
    }
}

/// Dot products of 32-value-block weights (Q8_0, Q4_0, Q5_0) with Q8_0 activations, two blocks
/// (one 512-bit register of values) per step. Rows hold an even number of blocks.
enum SmallBlockDot {
    /// Low nibbles of 16 bytes then their high nibbles: values 0..<16 then 16..<32.
    @inline(__always)
    static func nibbles(_ p: UnsafeRawPointer) -> SIMD8<UInt32> {
        let q = p.loadUnaligned(as: SIMD4<UInt32>.self)
        let mask = SIMD4<UInt32>(repeating: 0x0F0F_0F0F)
        return SIMD8(lowHalf: q & mask, highHalf: (q &>> 4) & mask)
    }

    /// Bit e of `a` (then of `b`) moved to bit 4 of byte e (Q5_0's fifth bit), both blocks at once:
    /// each 32-bit lane takes 4 bits and spreads them one per byte with a multiply.
    @inline(__always)
    static func highBits(_ a: UInt32, _ b: UInt32) -> SIMD16<UInt32> {
        let shifts = SIMD16<UInt32>(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28)
        let x = (IntegerDot.halves(a, b) &>> shifts) & 0xF
        return ((x &* 0x0020_4081) & 0x0101_0101) &<< 4
    }

    /// The two blocks' weight scales, 8 lanes each.
    @inline(__always)
    static func weightScales(_ block: UnsafeRawPointer, _ bytes: Int) -> SIMD16<Float> {
        IntegerDot.halves(HalfFloat.load(block, 0), HalfFloat.load(block, bytes))
    }

    /// The activation scales of blocks b and b + 1, pre-expanded to 8 lanes each.
    @inline(__always)
    static func activationScales(_ a: ActivationRow, _ b: Int) -> SIMD16<Float> {
        UnsafeRawPointer(a.expandedScales + 8 * b).loadUnaligned(as: SIMD16<Float>.self)
    }

    /// One weight row against one activation row.
    @inline(__always)
    static func dot<C: SmallBlockCodec>(_ codec: C.Type, _ w: UnsafeRawPointer, _ a: ActivationRow, blocks: Int) -> Float {
        let bytes = C.blockBytes
        var acc = SIMD8<Float>()
        var b = 0
        while b < blocks {
            let block = w + b * bytes
            let s = IntegerDot.pair(C.unpack(block), a.planes + 32 * b)
            IntegerDot.accumulate(&acc, IntegerDot.float(s), weightScales(block, bytes) * activationScales(a, b))
            b += 2
        }
        return IntegerDot.sum8(acc)
    }

    /// One weight row against four activation rows, unpacking each weight block once. Each row's
    /// float accumulation is the 1-row kernel's (8 lanes, first block then second, `sum8`), so a
    /// batched multiply is bit-identical to one-row multiplies, as llama.cpp's is.
    @inline(__always)
    static func dot4<C: SmallBlockCodec>(_ codec: C.Type, _ w: UnsafeRawPointer, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        let bytes = C.blockBytes
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>(), acc2 = SIMD8<Float>(), acc3 = SIMD8<Float>()
        var b = 0
        while b < blocks {
            let block = w + b * bytes
            let u = C.unpack(block)
            let ws = weightScales(block, bytes)
            let offset = 32 * b
            IntegerDot.accumulate(&acc0, IntegerDot.float(IntegerDot.pair(u, a.0.planes + offset)), ws * activationScales(a.0, b))
            IntegerDot.accumulate(&acc1, IntegerDot.float(IntegerDot.pair(u, a.1.planes + offset)), ws * activationScales(a.1, b))
            IntegerDot.accumulate(&acc2, IntegerDot.float(IntegerDot.pair(u, a.2.planes + offset)), ws * activationScales(a.2, b))
            IntegerDot.accumulate(&acc3, IntegerDot.float(IntegerDot.pair(u, a.3.planes + offset)), ws * activationScales(a.3, b))
            b += 2
        }
        return SIMD4(IntegerDot.sum8(acc0), IntegerDot.sum8(acc1), IntegerDot.sum8(acc2), IntegerDot.sum8(acc3))
    }

    /// Two weight rows against one activation row (decode): two independent accumulation chains
    /// interleaved, so the block-by-block fused adds (kept in llama.cpp's order) overlap.
    @inline(__always)
    static func dotRows2<C: SmallBlockCodec>(_ codec: C.Type, _ w0: UnsafeRawPointer, _ w1: UnsafeRawPointer, _ a: ActivationRow, blocks: Int) -> (Float, Float) {
        let bytes = C.blockBytes
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var b = 0
        while b < blocks {
            let as_ = activationScales(a, b)
            let planes = a.planes + 32 * b
            let block0 = w0 + b * bytes, block1 = w1 + b * bytes
            let s0 = IntegerDot.float(IntegerDot.pair(C.unpack(block0), planes))
            let s1 = IntegerDot.float(IntegerDot.pair(C.unpack(block1), planes))
            IntegerDot.accumulate(&acc0, s0, weightScales(block0, bytes) * as_)
            IntegerDot.accumulate(&acc1, s1, weightScales(block1, bytes) * as_)
            b += 2
        }
        return (IntegerDot.sum8(acc0), IntegerDot.sum8(acc1))
    }
}
