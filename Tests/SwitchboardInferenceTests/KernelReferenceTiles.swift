@testable import SwitchboardInference

// The prefill tiles as they were before weight rows were decoded once per batch (`vpmaddwd`): each
// block is unpacked in place for every tile. Kept only as references that the decoded tiles must
// match bit for bit (`KernelDecodedTileTests`); production uses the decoded tiles.

extension SmallBlockCodec {
    /// Blocks `b` and `b + 1` starting at `block`.
    static func unpack(_ block: UnsafeRawPointer) -> (SIMD32<Int16>, SIMD32<Int16>) { unpack(block, block + blockBytes) }
}

extension IntegerDot {
    /// acc += q · s, block by block: the low 8 lanes (first block) before the high 8 (second), as
    /// llama.cpp's 8-lane accumulator sees them.
    static func accumulate(_ acc: inout SIMD8<Float>, _ q: SIMD16<Float>, _ s: SIMD16<Float>) {
        acc.addProduct(q.lowHalf, s.lowHalf)
        acc.addProduct(q.highHalf, s.highHalf)
    }
}

extension SmallBlockDot {
    /// The two blocks' weight scales, 8 lanes each.
    @inline(__always)
    static func weightScales(_ block: UnsafeRawPointer, _ bytes: Int) -> SIMD16<Float> {
        IntegerDot.halves(HalfFloat.load(block, 0), HalfFloat.load(block, bytes))
    }

    /// The activation scales of blocks b and b + 1, 8 lanes each.
    @inline(__always)
    static func activationScales(_ a: ActivationRow, _ b: Int) -> SIMD16<Float> {
        IntegerDot.halves(a.scales[b], a.scales[b + 1])
    }

    /// One weight row against one activation row, llama.cpp's `vec_dot_q*_0_q8_0` order: the
    /// reference the row-pair kernels must match bit for bit.
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

    /// One weight row against eight activation rows, unpacking each block in place.
    @inline(__always)
    static func dot8<C: SmallBlockCodec>(_ codec: C.Type, _ w: UnsafeRawPointer, _ a: ActivationBuffer, first t: Int, blocks: Int) -> (SIMD4<Float>,
        SIMD4<Float>) {
        let bytes = C.blockBytes
        let planes = a.planes + t * a.columns, stride = a.columns
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>(), acc2 = SIMD8<Float>(), acc3 = SIMD8<Float>()
        var acc4 = SIMD8<Float>(), acc5 = SIMD8<Float>(), acc6 = SIMD8<Float>(), acc7 = SIMD8<Float>()
        var b = 0
        while b < blocks {
            let block = w + b * bytes
            let u = C.unpack(block)
            let ws = weightScales(block, bytes)
            @inline(__always) func term(_ r: Int) -> (SIMD16<Float>, SIMD16<Float>) {
                return (IntegerDot.float(IntegerDot.pair(u, planes + r * stride + 32 * b)), ws * activationScales(a.row(t + r), b))
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
