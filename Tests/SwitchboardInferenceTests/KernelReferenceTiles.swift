@testable import SwitchboardInference

// The prefill tiles as they were before weight rows were decoded once per batch (`vpmaddwd`): each
// block is unpacked in place for every tile. Kept only as references that the decoded tiles must
// match bit for bit (`KernelDecodedTileTests`); production uses the decoded tiles.

extension SmallBlockDot {
    /// One weight row against eight activation rows, unpacking each block in place.
    @inline(__always)
    static func dot8<C: SmallBlockCodec>(_ codec: C.Type, _ w: UnsafeRawPointer, _ a: ActivationBuffer, first t: Int, blocks: Int) -> (SIMD4<Float>, SIMD4<Float>) {
        let bytes = C.blockBytes
        let planes = a.planes + t * a.columns, stride = a.columns
        let scales = a.expandedScales + t * (a.columns / 4), scaleStride = a.columns / 4
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>(), acc2 = SIMD8<Float>(), acc3 = SIMD8<Float>()
        var acc4 = SIMD8<Float>(), acc5 = SIMD8<Float>(), acc6 = SIMD8<Float>(), acc7 = SIMD8<Float>()
        var b = 0
        while b < blocks {
            let block = w + b * bytes
            let u = C.unpack(block)
            let ws = weightScales(block, bytes)
            @inline(__always) func term(_ r: Int) -> (SIMD16<Float>, SIMD16<Float>) {
                let s = UnsafeRawPointer(scales + r * scaleStride + 8 * b).loadUnaligned(as: SIMD16<Float>.self)
                return (IntegerDot.float(IntegerDot.pair(u, planes + r * stride + 32 * b)), ws * s)
            }
            var x = term(0); IntegerDot.accumulate(&acc0, x.0, x.1)
            x = term(1); IntegerDot.accumulate(&acc1, x.0, x.1)
            x = term(2); IntegerDot.accumulate(&acc2, x.0, x.1)
            x = term(3); IntegerDot.accumulate(&acc3, x.0, x.1)
            x = term(4); IntegerDot.accumulate(&acc4, x.0, x.1)
            x = term(5); IntegerDot.accumulate(&acc5, x.0, x.1)
            x = term(6); IntegerDot.accumulate(&acc6, x.0, x.1)
            x = term(7); IntegerDot.accumulate(&acc7, x.0, x.1)
            b += 2
        }
        return (SIMD4(IntegerDot.sum8(acc0), IntegerDot.sum8(acc1), IntegerDot.sum8(acc2), IntegerDot.sum8(acc3)),
                SIMD4(IntegerDot.sum8(acc4), IntegerDot.sum8(acc5), IntegerDot.sum8(acc6), IntegerDot.sum8(acc7)))
    }
}

extension KQuantDot {
    static func q4K4(_ w: UnsafeRawPointer, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        var acc = SIMD4<Float>(), accMin = SIMD4<Float>()
        for b in 0..<blocks {
            let block = w + 144 * b
            let sm = q4KScales(block)
            var acc0 = SIMD16<Int32>(), acc1 = SIMD16<Int32>(), acc2 = SIMD16<Int32>(), acc3 = SIMD16<Int32>()
            for c in 0..<4 {
                let u = q4KChunk(block, c)
                let sc = IntegerDot.halves(sm.scales[2 * c], sm.scales[2 * c + 1])
                let off = 256 * b + 64 * c
                acc0 &+= IntegerDot.pair(u, a.0.planes + off) &* sc
                acc1 &+= IntegerDot.pair(u, a.1.planes + off) &* sc
                acc2 &+= IntegerDot.pair(u, a.2.planes + off) &* sc
                acc3 &+= IntegerDot.pair(u, a.3.planes + off) &* sc
            }
            func mins(_ r: ActivationRow) -> Float {
                Float((UnsafeRawPointer(r.groupSums + 8 * b).loadUnaligned(as: SIMD8<Int32>.self) &* sm.mins).wrappedSumTree)
            }
            let ints = SIMD4<Float>(Float(acc0.wrappedSumTree), Float(acc1.wrappedSumTree), Float(acc2.wrappedSumTree), Float(acc3.wrappedSumTree))
            let m = SIMD4<Float>(mins(a.0), mins(a.1), mins(a.2), mins(a.3))
            let scales = SIMD4<Float>(a.0.scales[b], a.1.scales[b], a.2.scales[b], a.3.scales[b])
            acc.addProduct(ints, HalfFloat.load(block, 0) * scales)
            accMin.addProduct(m, HalfFloat.load(block, 2) * scales)
        }
        return acc - accMin
    }

    static func q6K4(_ w: UnsafeRawPointer, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        var t0 = SIMD8<Float>(), t1 = SIMD8<Float>(), t2 = SIMD8<Float>(), t3 = SIMD8<Float>()
        for b in 0..<blocks {
            let block = w + 210 * b
            var acc0 = SIMD16<Int32>(), acc1 = SIMD16<Int32>(), acc2 = SIMD16<Int32>(), acc3 = SIMD16<Int32>()
            for n in 0..<2 {
                for p in 0..<2 {
                    let u = q6KPair(block, half: n, pair: p)
                    let sc = q6KScales(block, half: n, pair: p)
                    let off = 256 * b + 128 * n + 64 * p
                    acc0 &+= IntegerDot.pair(u, a.0.planes + off) &* sc
                    acc1 &+= IntegerDot.pair(u, a.1.planes + off) &* sc
                    acc2 &+= IntegerDot.pair(u, a.2.planes + off) &* sc
                    acc3 &+= IntegerDot.pair(u, a.3.planes + off) &* sc
                }
            }
            let d = HalfFloat.load(block, 208)
            t0.addProduct(IntegerDot.floatWide(acc0.lowHalf &+ acc0.highHalf), SIMD8(repeating: a.0.scales[b] * d))
            t1.addProduct(IntegerDot.floatWide(acc1.lowHalf &+ acc1.highHalf), SIMD8(repeating: a.1.scales[b] * d))
            t2.addProduct(IntegerDot.floatWide(acc2.lowHalf &+ acc2.highHalf), SIMD8(repeating: a.2.scales[b] * d))
            t3.addProduct(IntegerDot.floatWide(acc3.lowHalf &+ acc3.highHalf), SIMD8(repeating: a.3.scales[b] * d))
        }
        return SIMD4(IntegerDot.sum8(t0), IntegerDot.sum8(t1), IntegerDot.sum8(t2), IntegerDot.sum8(t3))
    }
}
