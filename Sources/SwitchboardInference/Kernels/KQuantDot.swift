/// Dot products of K-quant weights (Q4_K, Q6_K; 256-value blocks) with Q8_K activations, 64 values
/// (one 512-bit register) per step, integer sums per block and one float multiply per block.
enum KQuantDot {
    /// Q4_K's eight 6-bit (scale, min) pairs.
    @inline(__always)
    static func q4KScales(_ block: UnsafeRawPointer) -> (scales: SIMD8<Int32>, mins: SIMD8<Int32>) {
        var s = SIMD8<Int32>(), m = SIMD8<Int32>()
        for j in 0..<8 {
            let (sc, mn) = Dequantize.scaleMinK4(j, block + 4)
            s[j] = Int32(sc); m[j] = Int32(mn)
        }
        return (s, m)
    }

    /// Chunk c (values 64c..<64c+64) of a Q4_K block: low nibbles are sub-block 2c, high nibbles 2c+1.
    @inline(__always)
    static func q4KChunk(_ block: UnsafeRawPointer, _ c: Int) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let q = block.loadUnaligned(fromByteOffset: 16 + 32 * c, as: SIMD8<UInt32>.self)
        return IntegerDot.split(SIMD16(lowHalf: q & IntegerDot.lowNibbles, highHalf: (q &>> 4) & IntegerDot.lowNibbles), offset: 0)
    }

    /// Σ over one Q4_K block with one activation block: (scaled integer part, minimum part).
    @inline(__always)
    static func q4KBlock(_ block: UnsafeRawPointer, _ planes: UnsafePointer<Int16>, _ groupSums: UnsafePointer<Int32>, _ sm: (scales: SIMD8<Int32>,
        mins: SIMD8<Int32>)) -> (Int32, Int32) {
        var acc = SIMD16<Int32>()
        for c in 0..<4 {
            acc &+= IntegerDot.pair(q4KChunk(block, c), planes + 64 * c) &* IntegerDot.halves(sm.scales[2 * c], sm.scales[2 * c + 1])
        }
        let sums = UnsafeRawPointer(groupSums).loadUnaligned(as: SIMD8<Int32>.self)
        return (acc.wrappedSumTree, (sums &* sm.mins).wrappedSumTree)
    }

    /// Float accumulation as llama.cpp's repacked Q4_K GEMV does it (one activation row): per block
    /// one fused multiply-add of the scaled sum and one of the mins, in two accumulators subtracted
    /// at the end.
    static func q4K(_ w: UnsafeRawPointer, _ a: ActivationRow, blocks: Int) -> Float {
        var acc: Float = 0, accMin: Float = 0
        for b in 0..<blocks {
            let block = w + 144 * b
            let (i, m) = q4KBlock(block, a.planes + 256 * b, a.groupSums + 8 * b, q4KScales(block))
            acc.addProduct(Float(i), HalfFloat.load(block, 0) * a.scales[b])
            accMin.addProduct(Float(m), HalfFloat.load(block, 2) * a.scales[b])
        }
        return acc - accMin
    }

    /// Runs 2p and 2p+1 (p = 0, 1) of half n of a Q6_K block — 64 values — as even/odd lanes of
    /// q − `offset` (0: the −32 is applied through the activation sums, as `vec_dot` does).
    /// Run k holds low (k < 2) or high nibbles of ql[32(k&1)...] and bits 2k..2k+1 of qh.
    @inline(__always)
    static func q6KPair(_ block: UnsafeRawPointer, half n: Int, pair p: Int, offset: Int16 = 0) -> (SIMD32<Int16>, SIMD32<Int16>) {
        let l = block.loadUnaligned(fromByteOffset: 64 * n, as: SIMD16<UInt32>.self)
        let h = block.loadUnaligned(fromByteOffset: 128 + 32 * n, as: SIMD8<UInt32>.self)
        let low = (l &>> UInt32(4 * p)) & SIMD16(repeating: 0x0F0F_0F0F)
        let hs = UInt32(4 * p)
        let high = SIMD16(lowHalf: h &>> hs, highHalf: h &>> (hs + 2)) & SIMD16(repeating: 0x0303_0303)
        return IntegerDot.split(low | (high &<< 4), offset: offset)
    }

    /// The four int8 scales of a pair of runs, each spread over its 4 partial-sum lanes.
    @inline(__always)
    static func q6KScales(_ block: UnsafeRawPointer, half n: Int, pair p: Int) -> SIMD16<Int32> {
        let packed = Int32(bitPattern: block.loadUnaligned(fromByteOffset: 192 + 8 * n + 4 * p, as: UInt32.self))
        let shifts = SIMD16<Int32>(24, 24, 24, 24, 16, 16, 16, 16, 8, 8, 8, 8, 0, 0, 0, 0)
        return (SIMD16(repeating: packed) &<< shifts) &>> 24
    }

    /// The block's sixteen int8 scales, one per 32-bit lane.
    @inline(__always)
    static func q6KAllScales(_ block: UnsafeRawPointer) -> SIMD16<Int32> {
        let w = block.loadUnaligned(fromByteOffset: 192, as: SIMD4<UInt32>.self)
        let words = SIMD16<UInt32>(w[0], w[0], w[0], w[0], w[1], w[1], w[1], w[1], w[2], w[2], w[2], w[2], w[3], w[3], w[3], w[3])
        let shifts = SIMD16<UInt32>(24, 16, 8, 0, 24, 16, 8, 0, 24, 16, 8, 0, 24, 16, 8, 0)
        return unsafeBitCast(words &<< shifts, to: SIMD16<Int32>.self) &>> 24
    }

    /// llama.cpp's AVX2 `vec_dot_q6_K_q8_K` subtracts 32·q8 per lane pair of scales: lane i gets
    /// 32·(scale[2i]·bsum[2i] + scale[2i+1]·bsum[2i+1]) — not the −32 of its own values — and the
    /// float sums depend on which lane holds what.
    @inline(__always)
    static func q6KOffsets(_ scales: SIMD16<Int32>, _ sixteenSums: UnsafePointer<Int32>) -> SIMD8<Int32> {
        let p = scales &* UnsafeRawPointer(sixteenSums).loadUnaligned(as: SIMD16<Int32>.self)
        return (p.evenHalf &+ p.oddHalf) &<< 5
    }

    /// Float accumulation as llama.cpp's AVX2 `vec_dot_q6_K_q8_K` does it: 8 lanes of integer sums
    /// per block (lane i: values 4i..<4i+4 of every 32, unsigned q, less its offset share), one fused
    /// multiply-add per block, `hsum_float_8` at the end.
    static func q6K(_ w: UnsafeRawPointer, _ a: ActivationRow, blocks: Int) -> Float {
        var total = SIMD8<Float>()
        for b in 0..<blocks {
            let block = w + 210 * b
            var acc = SIMD16<Int32>()
            for n in 0..<2 {
                for p in 0..<2 {
                    acc &+= IntegerDot.pair(q6KPair(block, half: n, pair: p), a.planes + 256 * b + 128 * n + 64 * p) &* q6KScales(block, half: n,
                        pair: p)
                }
            }
            let lanes = acc.lowHalf &+ acc.highHalf &- q6KOffsets(q6KAllScales(block), a.sixteenSums + 16 * b)
            total.addProduct(IntegerDot.floatWide(lanes), SIMD8(repeating: a.scales[b] * HalfFloat.load(block, 208)))
        }
        return IntegerDot.sum8(total)
    }
}

extension KQuantDot {
    /// llama.cpp sends batches of 8 or more rows of a (non-repacked) K-quant matrix through its tiled
    /// GEMM, which has its own float order; smaller batches go through `vec_dot` row by row.
    @inline(__always)
    static func q6KUsesSlabOrder(batch count: Int) -> Bool { count >= 8 }

    /// Q6_K as llama.cpp's tiled GEMM (AVX-512 VNNI microkernel) computes it: per block the exact
    /// integer Σ scale·(q − 32)·q8, converted once, times `d`, then one fused multiply-add by the
    /// activation scale.
    static func q6KSlab(_ w: UnsafeRawPointer, _ a: ActivationRow, blocks: Int) -> Float {
        var total: Float = 0
        for b in 0..<blocks {
            let block = w + 210 * b
            var acc = SIMD16<Int32>()
            for n in 0..<2 {
                for p in 0..<2 {
                    acc &+= IntegerDot.pair(q6KPair(block, half: n, pair: p, offset: 32), a.planes + 256 * b + 128 * n + 64 * p) &* q6KScales(block,
                        half: n, pair: p)
                }
            }
            total.addProduct(Float(acc.wrappedSumTree) * HalfFloat.load(block, 208), a.scales[b])
        }
        return total
    }
}

extension SIMD16<Int32> {
    @inline(__always) var wrappedSumTree: Int32 { IntegerDot.sum(self) }
}

extension SIMD8<Int32> {
    @inline(__always) var wrappedSumTree: Int32 {
        let b = lowHalf &+ highHalf
        let c = b.lowHalf &+ b.highHalf
        return c[0] &+ c[1]
    }
}
