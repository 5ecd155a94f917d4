/// How one 32-value block format is unpacked: a type parameter, so every kernel is specialized per
/// format (a runtime switch inside the block loop costs registers and branches).
protocol SmallBlockCodec {
    static var blockBytes: Int { get }
    /// Two blocks (anywhere: the next block, or the same block of another row) as even/odd Int16
    /// lanes, `first` in lanes 0..<16 and `second` in lanes 16..<32 of each.
    static func unpack(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>)
    /// `unpack` for the same block of two rows in the decode loop (`SmallBlockDot.dotRowPair`).
    static func unpackRows(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ shifts: UnpackShifts) -> (SIMD32<Int16>, SIMD32<Int16>)
    /// Blocks carry an fp16 minimum `m` at byte 2 (value = q·d + m): each dot product adds
    /// Σ m·s over the blocks, s being the activation block's scaled sum (llama.cpp's Q8_1 `s`).
    static var hasMinimum: Bool { get }
    /// Weights within ±15, so a product pair fits in Int16 (`IntegerDot.pairedIntNarrow`).
    static var isNarrow: Bool { get }
}

extension SmallBlockCodec {
    static var hasMinimum: Bool { false }
    static var isNarrow: Bool { false }

    @inline(__always)
    static func unpackRows(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ shifts: UnpackShifts) -> (SIMD32<Int16>,
        SIMD32<Int16>) { unpack(first, second) }

    /// Blocks `b` and `b + 1` starting at `block`.
    @inline(__always)
    static func unpack(_ block: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) { unpack(block, block + blockBytes) }
}

enum Q8_0Codec: SmallBlockCodec {
    static var blockBytes: Int { 34 }
    @inline(__always)
    static func unpack(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) {
        IntegerDot.splitSigned(SIMD16(lowHalf: first.loadUnaligned(fromByteOffset: 2, as: SIMD8<UInt32>.self),
                                      highHalf: second.loadUnaligned(fromByteOffset: 2, as: SIMD8<UInt32>.self)))
    }
}

enum Q4_0Codec: SmallBlockCodec {
    static var blockBytes: Int { 18 }
    static var isNarrow: Bool { true }
    @inline(__always)
    static func unpack(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) {
        IntegerDot.split(SIMD16(lowHalf: SmallBlockDot.nibbles(first + 2), highHalf: SmallBlockDot.nibbles(second + 2)), offset: 8)
    }

    @inline(__always)
    static func unpackRows(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ shifts: UnpackShifts) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let (even, odd) = SmallBlockDot.nibbleRows(first + 2, second + 2, shifts)
        let offset = IntegerDot.splat(8)
        return (even &- offset, odd &- offset)
    }
}

/// d, m, then 16 bytes of nibbles: unsigned 0…15 (the minimum `m` replaces Q4_0's −8 offset).
enum Q4_1Codec: SmallBlockCodec {
    static var blockBytes: Int { 20 }
    static var hasMinimum: Bool { true }
    static var isNarrow: Bool { true }
    @inline(__always)
    static func unpack(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) {
        IntegerDot.split(SIMD16(lowHalf: SmallBlockDot.nibbles(first + 4), highHalf: SmallBlockDot.nibbles(second + 4)), offset: 0)
    }

    @inline(__always)
    static func unpackRows(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ shifts: UnpackShifts) -> (SIMD32<Int16>, SIMD32<Int16>) {
        SmallBlockDot.nibbleRows(first + 4, second + 4, shifts)
    }
}

enum Q5_0Codec: SmallBlockCodec {
    static var blockBytes: Int { 22 }
    @inline(__always)
    static func unpack(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let low = SIMD16(lowHalf: SmallBlockDot.nibbles(first + 6), highHalf: SmallBlockDot.nibbles(second + 6))
        let high = SmallBlockDot.highBits(first.loadUnaligned(fromByteOffset: 2, as: UInt32.self), second.loadUnaligned(fromByteOffset: 2,
            as: UInt32.self))
        return IntegerDot.split(low | high, offset: 16)
    }

    /// The row-pair form: the same lanes, computed with whole-register shifts by the run-time
    /// amounts in `shifts` (with literal per-lane amounts LLVM rewrites every lane differently and
    /// the loop turns into shuffles). 32-bit lane k of a block holds values 4k..<4k+4: its nibbles
    /// are in 32-bit word k%4 of the 16 quant bytes (low nibbles for k < 4, high ones for k ≥ 4), its fifth
    /// bits are bits 4k..<4k+4 of qh; even Int16 lanes take values 4k and 4k+2, odd ones 4k+1, 4k+3.
    @inline(__always)
    static func unpackRows(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ shifts: UnpackShifts) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let q0 = first.loadUnaligned(fromByteOffset: 6, as: SIMD4<UInt32>.self)
        let q1 = second.loadUnaligned(fromByteOffset: 6, as: SIMD4<UInt32>.self)
        let nibbles = SIMD16(lowHalf: SIMD8(lowHalf: q0, highHalf: q0), highHalf: SIMD8(lowHalf: q1, highHalf: q1)) &>> shifts.nibbles
        let bits = IntegerDot.halves(first.loadUnaligned(fromByteOffset: 2, as: UInt32.self), second.loadUnaligned(fromByteOffset: 2,
            as: UInt32.self)) &>> shifts.bits & 0xF
        let low = SIMD16<UInt32>(repeating: 0x000F_000F), high = SIMD16<UInt32>(repeating: 0x0010_0010)
        let even = (nibbles & low) | (((bits &<< 4) | (bits &<< 18)) & high)
        let odd = ((nibbles &>> 8) & low) | (((bits &<< 3) | (bits &<< 17)) & high)
        let offset = IntegerDot.splat(16)
        return (unsafeBitCast(even, to: SIMD32<Int16>.self) &- offset, unsafeBitCast(odd, to: SIMD32<Int16>.self) &- offset)
    }
}

/// Dot products of 32-value-block weights (Q8_0, Q4_0, Q5_0) with Q8_0 activations: the row-pair
/// kernels (`SmallBlockDot+RowPair`, `+DecodedRowPair`) and their unpacking helpers. Rows hold an
/// even number of blocks.
enum SmallBlockDot {
    /// Low nibbles of 16 bytes then their high nibbles: values 0..<16 then 16..<32.
    @inline(__always)
    static func nibbles(_ p: UnsafeRawPointer) -> SIMD8<UInt32> {
        let q = p.loadUnaligned(as: SIMD4<UInt32>.self)
        let mask = SIMD4<UInt32>(repeating: 0x0F0F_0F0F)
        return SIMD8(lowHalf: q & mask, highHalf: (q &>> 4) & mask)
    }

    /// The 16 nibble bytes at `first` and at `second` as the even/odd Int16 lanes of the row-pair form
    /// (`Q5_0Codec.unpackRows` explains the lanes): each row's words twice in one register, shifted by
    /// the run-time amounts in `shifts` and masked; no shuffles.
    @inline(__always)
    static func nibbleRows(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ shifts: UnpackShifts) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let q0 = first.loadUnaligned(as: SIMD4<UInt32>.self), q1 = second.loadUnaligned(as: SIMD4<UInt32>.self)
        let nibbles = SIMD16(lowHalf: SIMD8(lowHalf: q0, highHalf: q0), highHalf: SIMD8(lowHalf: q1, highHalf: q1)) &>> shifts.nibbles
        let mask = SIMD16<UInt32>(repeating: 0x000F_000F)
        return (unsafeBitCast(nibbles & mask, to: SIMD32<Int16>.self), unsafeBitCast((nibbles &>> 8) & mask, to: SIMD32<Int16>.self))
    }

    /// Bit e of `a` (then of `b`) moved to bit 4 of byte e (Q5_0's fifth bit), both blocks at once:
    /// each 32-bit lane takes 4 bits and spreads them one per byte with a multiply.
    @inline(__always)
    static func highBits(_ a: UInt32, _ b: UInt32) -> SIMD16<UInt32> {
        let shifts = SIMD16<UInt32>(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28)
        let x = (IntegerDot.halves(a, b) &>> shifts) & 0xF
        return ((x &* 0x0020_4081) & 0x0101_0101) &<< 4
    }
}
