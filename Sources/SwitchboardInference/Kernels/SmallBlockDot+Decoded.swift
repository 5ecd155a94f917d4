/// Prefill path for 32-value-block weights: each weight row is decoded once into a scratch row of
/// Int16 (per pair of blocks: the 32 even-indexed values, then the 32 odd-indexed values negated)
/// plus its block scales expanded to 8 lanes, then multiplied against the activation rows 8 at a
/// time with `vpmaddwd` (`IntegerDot.pairFloat`). The unpacking is amortized over every activation
/// row of the batch instead of one 8-row tile, and the per-row work per 64 values drops from
/// two `vpmullw`, an add and a shift-widening to two `vpmaddwd`.
///
/// Results are bit-identical to `SmallBlockDot.dot8`: the same Int32 partial sums per lane, the same
/// exact float conversion, the same fused accumulation order.
extension SmallBlockDot {
    /// Decodes the `blocks` (even) blocks of one weight row into `values` (32·blocks Int16) and
    /// `scales` (8·blocks Float).
    @inline(__always)
    static func decode<C: SmallBlockCodec>(_ codec: C.Type, _ w: UnsafeRawPointer, blocks: Int, values: UnsafeMutablePointer<Int16>, scales: UnsafeMutablePointer<Float>) {
        let bytes = C.blockBytes
        var b = 0
        while b < blocks {
            let block = w + b * bytes
            let u = C.unpack(block)
            let out = UnsafeMutableRawPointer(values + 32 * b)
            out.storeBytes(of: u.0, as: SIMD32<Int16>.self)
            out.storeBytes(of: SIMD32<Int16>() &- u.1, toByteOffset: 64, as: SIMD32<Int16>.self)
            UnsafeMutableRawPointer(scales + 8 * b).storeBytes(of: weightScales(block, bytes), as: SIMD16<Float>.self)
            b += 2
        }
    }

    /// One decoded weight row against eight activation rows (`first` is row 0; rows are `stride`
    /// apart): the accumulation of `dot8`.
    @inline(__always)
    static func dot8(decoded values: UnsafePointer<Int16>, scales weightScales: UnsafePointer<Float>, _ a: ActivationBuffer, first t: Int, blocks: Int) -> (SIMD4<Float>, SIMD4<Float>) {
        let planes = a.planes + t * a.columns, stride = a.columns
        let scales = a.expandedScales + t * (a.columns / 4), scaleStride = a.columns / 4
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>(), acc2 = SIMD8<Float>(), acc3 = SIMD8<Float>()
        var acc4 = SIMD8<Float>(), acc5 = SIMD8<Float>(), acc6 = SIMD8<Float>(), acc7 = SIMD8<Float>()
        var b = 0
        while b < blocks {
            let u = values + 32 * b
            let ws = UnsafeRawPointer(weightScales + 8 * b).loadUnaligned(as: SIMD16<Float>.self)
            @inline(__always) func term(_ r: Int) -> (SIMD16<Float>, SIMD16<Float>) {
                let s = UnsafeRawPointer(scales + r * scaleStride + 8 * b).loadUnaligned(as: SIMD16<Float>.self)
                return (IntegerDot.pairFloat(u, planes + r * stride + 32 * b), ws * s)
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
