/// Decode path for 32-value-block weights: two weight rows against one activation row, block by
/// block, with both rows' 8-lane accumulators in one 512-bit register (row 0 in lanes 0..<8, row 1
/// in lanes 8..<16). Each step unpacks the same block of both rows, multiplies it with
/// `ActivationBuffer.paired` (the block's activations repeated for both halves, odd values negated)
/// in two `vpmaddwd`, and does one fused multiply-add. Per 64 weights that is about half the work of
/// two single-row chains, which split each register into halves for llama.cpp's 8-lane order.
///
/// Each row's float accumulation is llama.cpp's `vec_dot_q*_0_q8_0` (8 lanes, block by block, fused
/// multiply-add of d_w·d_a, then `hsum_float_8`), so results are bit-identical to `dot`. Q4_1
/// (`vec_dot_q4_1_q8_1`) also sums m_w·s_a block by block in a scalar, added after `hsum_float_8`.
extension SmallBlockDot {
    @inline(__always)
    static func dotRowPair<C: SmallBlockCodec>(_ codec: C.Type, _ w0: UnsafeRawPointer, _ w1: UnsafeRawPointer, _ a: PairedActivationRow,
                                               blocks: Int) -> (Float, Float) {
        let bytes = C.blockBytes
        var acc = SIMD16<Float>()
        var min0: Float = 0, min1: Float = 0
        var x0 = w0, x1 = w1, values = a.values
        let shifts = a.shifts
        for b in 0..<blocks {
            let w = C.unpackRows(x0, x1, shifts)
            let s = C.isNarrow ? IntegerDot.pairedIntNarrow(w, values) : IntegerDot.pairedInt(w, values)
            let scale = IntegerDot.halves(HalfFloat.load(x0, 0), HalfFloat.load(x1, 0)) * SIMD16(repeating: a.scales[b])
            acc.addProduct(IntegerDot.convert(s), scale)
            if C.hasMinimum {
                min0.addProduct(HalfFloat.load(x0, 2), a.sums[b]); min1.addProduct(HalfFloat.load(x1, 2), a.sums[b])
            }
            x0 += bytes; x1 += bytes; values += 64
        }
        return (IntegerDot.sum8(acc.lowHalf) + min0, IntegerDot.sum8(acc.highHalf) + min1)
    }
}

extension IntegerDot {
    /// Int32 → Float lane by lane, which LLVM turns into one `vcvtdq2ps` (the whole-vector
    /// initializer is a generic, unspecialized call). Exact below 2^24, like llama.cpp's conversion.
    @inline(__always)
    static func convert(_ v: SIMD16<Int32>) -> SIMD16<Float> {
        SIMD16(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]), Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]),
               Float(v[8]), Float(v[9]), Float(v[10]), Float(v[11]), Float(v[12]), Float(v[13]), Float(v[14]), Float(v[15]))
    }

    /// Lane sums of a row-pair step: `w` even/odd Int16 weights, `a` the paired activations (32 even
    /// values, then 32 negated odd values). Two `vpmaddwd` and a subtraction (see `pairInt` for why
    /// the odd half is negated rather than added).
    @inline(__always)
    static func pairedInt(_ w: (SIMD32<Int16>, SIMD32<Int16>), _ a: UnsafePointer<Int16>) -> SIMD16<Int32> {
        let raw = UnsafeRawPointer(a)
        return multiplyAdd(w.0, raw.loadUnaligned(as: SIMD32<Int16>.self)) &- multiplyAdd(w.1, raw.loadUnaligned(fromByteOffset: 64,
            as: SIMD32<Int16>.self))
    }

    /// `pairedInt` for 4-bit weights (|w| ≤ 15, so w_e·a_e − w_o·a_o fits in Int16): Int16 multiplies
    /// and one subtraction, then adjacent Int16 pairs summed into Int32 lanes. Whole-register ops
    /// throughout: weights unpacked by 32-bit shifts defeat LLVM's `vpmaddwd` match, and the
    /// unmatched form extends every lane to 32 bits (`multiplyAdd`).
    @inline(__always)
    static func pairedIntNarrow(_ w: (SIMD32<Int16>, SIMD32<Int16>), _ a: UnsafePointer<Int16>) -> SIMD16<Int32> {
        let raw = UnsafeRawPointer(a)
        let p = unsafeBitCast(w.0 &* raw.loadUnaligned(as: SIMD32<Int16>.self) &- w.1 &* raw.loadUnaligned(fromByteOffset: 64,
            as: SIMD32<Int16>.self),
                              to: SIMD16<Int32>.self)
        return ((p &<< 16) &>> 16) &+ (p &>> 16)
    }
}

/// Per-lane shift amounts for `SmallBlockCodec.unpackRows`, read from memory before the loop.
struct UnpackShifts {
    let nibbles: SIMD16<UInt32>
    let bits: SIMD16<UInt32>

    static let table: [UInt32] = [0, 0, 0, 0, 4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4, 4] + (0..<16).map { UInt32(4 * ($0 % 8)) }

    init(_ table: UnsafePointer<UInt32>) {
        nibbles = UnsafeRawPointer(table).loadUnaligned(as: SIMD16<UInt32>.self)
        bits = UnsafeRawPointer(table).loadUnaligned(fromByteOffset: 64, as: SIMD16<UInt32>.self)
    }
}

extension SmallBlockDot {
    /// `dotRowPair` against four activation rows at once (a batched decode step): each block of both
    /// weight rows is unpacked once and multiplied with every row while it sits in registers. Per
    /// activation row the arithmetic and its order are `dotRowPair`'s, so results are bit-identical.
    /// Q4_1's minimum terms are not added here: `minimumTerms` computes them for every row at once.
    @inline(__always)
    static func dotRowPair4<C: SmallBlockCodec>(_ codec: C.Type, _ w0: UnsafeRawPointer, _ w1: UnsafeRawPointer,
                                                _ a: (PairedActivationRow, PairedActivationRow, PairedActivationRow, PairedActivationRow),
                                                blocks: Int) -> (SIMD4<Float>, SIMD4<Float>) {
        var acc0 = SIMD16<Float>(), acc1 = SIMD16<Float>(), acc2 = SIMD16<Float>(), acc3 = SIMD16<Float>()
        forEachBlock(codec, w0, w1, shifts: a.0.shifts, blocks: blocks) { b, w, d in
            rowStep(codec, w, d, a.0, block: b, &acc0); rowStep(codec, w, d, a.1, block: b, &acc1)
            rowStep(codec, w, d, a.2, block: b, &acc2); rowStep(codec, w, d, a.3, block: b, &acc3)
        }
        let r0 = SIMD4(IntegerDot.sum8(acc0.lowHalf), IntegerDot.sum8(acc1.lowHalf), IntegerDot.sum8(acc2.lowHalf), IntegerDot.sum8(acc3.lowHalf))
        let r1 = SIMD4(IntegerDot.sum8(acc0.highHalf), IntegerDot.sum8(acc1.highHalf), IntegerDot.sum8(acc2.highHalf), IntegerDot.sum8(acc3.highHalf))
        return (r0, r1)
    }

    /// Both weight rows block by block for the batched kernels: `body(b, block b unpacked, its scales
    /// d₀ ×8 | d₁ ×8)`.
    @inline(__always)
    static func forEachBlock<C: SmallBlockCodec>(_ codec: C.Type, _ w0: UnsafeRawPointer, _ w1: UnsafeRawPointer, shifts: UnpackShifts,
                                                 blocks: Int, _ body: (Int, (SIMD32<Int16>, SIMD32<Int16>), SIMD16<Float>) -> Void) {
        var x0 = w0, x1 = w1
        for b in 0..<blocks {
            body(b, C.unpackRows(x0, x1, shifts), IntegerDot.halves(HalfFloat.load(x0, 0), HalfFloat.load(x1, 0)))
            x0 += C.blockBytes; x1 += C.blockBytes
        }
    }

    /// One activation row's step of the batched kernels: block `b` of both weight rows (`w`, unpacked;
    /// `d` their scales) times the row, added to its accumulator pair — `dotRowPair`'s arithmetic.
    @inline(__always)
    static func rowStep<C: SmallBlockCodec>(_ codec: C.Type, _ w: (SIMD32<Int16>, SIMD32<Int16>), _ d: SIMD16<Float>,
                                            _ row: PairedActivationRow, block b: Int, _ acc: inout SIMD16<Float>) {
        let values = row.values + 64 * b
        let s = C.isNarrow ? IntegerDot.pairedIntNarrow(w, values) : IntegerDot.pairedInt(w, values)
        acc.addProduct(IntegerDot.convert(s), d * SIMD16(repeating: row.scales[b]))
    }

    /// `dotRowPair4` against two activation rows (a batch's remainder past its groups of four):
    /// the weights unpacked once for both, the minimum terms left to `minimumTerms` likewise.
    @inline(__always)
    static func dotRowPair2<C: SmallBlockCodec>(_ codec: C.Type, _ w0: UnsafeRawPointer, _ w1: UnsafeRawPointer,
                                                _ a: (PairedActivationRow, PairedActivationRow), blocks: Int) -> (SIMD2<Float>, SIMD2<Float>) {
        var acc0 = SIMD16<Float>(), acc1 = SIMD16<Float>()
        forEachBlock(codec, w0, w1, shifts: a.0.shifts, blocks: blocks) { b, w, d in
            rowStep(codec, w, d, a.0, block: b, &acc0); rowStep(codec, w, d, a.1, block: b, &acc1)
        }
        return (SIMD2(IntegerDot.sum8(acc0.lowHalf), IntegerDot.sum8(acc1.lowHalf)),
                SIMD2(IntegerDot.sum8(acc0.highHalf), IntegerDot.sum8(acc1.highHalf)))
    }

    /// Σ m_w·s_a in block order (`dotRowPair`'s scalar chain) for two weight rows against up to 16
    /// activation rows at once: `sums` holds each block's Q8_1 sums block-major, 16 per block
    /// (`blockMajor`). Contiguous loads: reading four rows' sums per block inside `dotRowPair4`
    /// compiled to a gather, slow on AMD (12 % of the batched kernel's samples on Zen 4).
    @inline(__always)
    static func minimumTerms(_ w0: UnsafeRawPointer, _ w1: UnsafeRawPointer, blockBytes: Int, blocks: Int,
                             sums: UnsafePointer<Float>) -> (SIMD16<Float>, SIMD16<Float>) {
        var m0 = SIMD16<Float>(), m1 = SIMD16<Float>()
        var x0 = w0, x1 = w1
        for b in 0..<blocks {
            let s = UnsafeRawPointer(sums + 16 * b).loadUnaligned(as: SIMD16<Float>.self)
            m0.addProduct(SIMD16(repeating: HalfFloat.load(x0, 2)), s)
            m1.addProduct(SIMD16(repeating: HalfFloat.load(x1, 2)), s)
            x0 += blockBytes; x1 += blockBytes
        }
        return (m0, m1)
    }
}
