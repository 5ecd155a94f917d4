/// Dot products of 32-value-block weights (Q8_0, Q4_0, Q5_0) with Q8_0 activations.
enum SmallBlockDot {
    @inline(__always)
    static func unpack(_ format: WeightFormat, _ block: UnsafeRawPointer) -> (SIMD16<Int16>, SIMD16<Int16>) {
        switch format {
        case .q8_0:
            return IntegerDot.splitSigned(block.loadUnaligned(fromByteOffset: 2, as: SIMD8<UInt32>.self))
        case .q4_0:
            return IntegerDot.split(nibbles(block.loadUnaligned(fromByteOffset: 2, as: SIMD4<UInt32>.self)), offset: 8)
        default:
            let h = block.loadUnaligned(fromByteOffset: 2, as: UInt32.self)
            let v = nibbles(block.loadUnaligned(fromByteOffset: 6, as: SIMD4<UInt32>.self)) | highBits(h)
            return IntegerDot.split(v, offset: 16)
        }
    }

    /// Low nibbles of 16 bytes then their high nibbles: values 0..<16 then 16..<32.
    @inline(__always)
    static func nibbles(_ q: SIMD4<UInt32>) -> SIMD8<UInt32> {
        let mask: SIMD4<UInt32> = SIMD4(repeating: 0x0F0F_0F0F)
        return SIMD8(lowHalf: q & mask, highHalf: (q &>> 4) & mask)
    }

    /// Bit e of `h` moved to bit 4 of byte e (Q5_0's fifth bit).
    @inline(__always)
    static func highBits(_ h: UInt32) -> SIMD8<UInt32> {
        let shifts = SIMD8<UInt32>(0, 4, 8, 12, 16, 20, 24, 28)
        let x = (SIMD8<UInt32>(repeating: h) &>> shifts) & 0xF
        return ((x &* 0x0020_4081) & 0x0101_0101) &<< 4
    }

    /// One weight row against one activation row.
    @inline(__always)
    static func dot(_ format: WeightFormat, _ w: UnsafeRawPointer, _ a: ActivationRow, blocks: Int) -> Float {
        let bytes = format.blockBytes
        var acc = SIMD8<Float>()
        for b in 0..<blocks {
            let block = w + b * bytes
            let s = IntegerDot.group(unpack(format, block), a.planes + 32 * b)
            acc += IntegerDot.float(s) * (HalfFloat.load(block, 0) * a.scales[b])
        }
        return acc.sum()
    }

    /// One weight row against four activation rows, unpacking each weight block once.
    @inline(__always)
    static func dot4(_ format: WeightFormat, _ w: UnsafeRawPointer, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        let bytes = format.blockBytes
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>(), acc2 = SIMD8<Float>(), acc3 = SIMD8<Float>()
        for b in 0..<blocks {
            let block = w + b * bytes
            let unpacked = unpack(format, block)
            let d = HalfFloat.load(block, 0)
            acc0 += IntegerDot.float(IntegerDot.group(unpacked, a.0.planes + 32 * b)) * (d * a.0.scales[b])
            acc1 += IntegerDot.float(IntegerDot.group(unpacked, a.1.planes + 32 * b)) * (d * a.1.scales[b])
            acc2 += IntegerDot.float(IntegerDot.group(unpacked, a.2.planes + 32 * b)) * (d * a.2.scales[b])
            acc3 += IntegerDot.float(IntegerDot.group(unpacked, a.3.planes + 32 * b)) * (d * a.3.scales[b])
        }
        return SIMD4(acc0.sum(), acc1.sum(), acc2.sum(), acc3.sum())
    }
}
