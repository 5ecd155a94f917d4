/// Batched decode for Q4_1 weights on AVX2 machines: `vpmaddubsw` (unsigned weight bytes × signed
/// activation bytes, adjacent pairs summed to Int16), reached from plain Swift.
///
/// LLVM's X86 backend turns `trunc(smin(smax(zext(even x)·sext(even y) + zext(odd x)·sext(odd y))))`
/// into `vpmaddubsw` when (found with `-emit-assembly`):
/// - each product is written on 16 bytes (8 Int32 lanes: legal AVX2 types); two such halves of a
///   block joined *after* their pair sums become one 256-bit `vpmaddubsw`;
/// - both operands are loaded from memory, so the weights are unpacked into a byte row first;
/// - the Int16 result is read through a bit cast (a lane-wise widening is folded into the
///   saturation and the match is lost), which is why the pair sums use shifts, not `vpmaddwd`.
///
/// Per block and activation row: one `vpmaddubsw`, four shifts/adds, a conversion and one fused
/// multiply-add, against about ten 256-bit operations in the register kernel's Int16 form.
///
/// Exactness: Q4_1 weights are 0…15 and activations −127…127, so no pair sum saturates; Int32 lane i
/// holds values 4i..<4i+4 of the block exactly as `dotRowPair`'s lanes do, and each row's float
/// accumulation (d_w·d_a fused per block, `hsum_float_8`, then the scalar chain Σ m_w·s_a) is
/// `vec_dot_q4_1_q8_1`'s. `KernelBatchExactTests` checks every row against the one-row kernel.
extension SmallBlockDot {
    /// One weight row unpacked: per block 32 unsigned bytes (values in order), m, and d·d_a for
    /// every row of the batch (read by broadcast loads, not multiplied per row in the inner loop).
    struct ByteRow {
        /// Activation rows per batched step at most, and the stride of the block-major tables
        /// (`TileTables` with `minimumStride: lanes`) and of `products`.
        static var lanes: Int { 16 }
        let values: UnsafeMutablePointer<UInt8>
        let minimums: UnsafeMutablePointer<Float>
        let products: UnsafeMutablePointer<Float>
        let blocks: Int

        static func bytes(blocks: Int) -> Int { blocks * (32 + 4 + 4 * lanes) }

        init(_ base: UnsafeMutableRawPointer, blocks: Int) {
            values = base.bindMemory(to: UInt8.self, capacity: 32 * blocks)
            minimums = (base + 32 * blocks).bindMemory(to: Float.self, capacity: blocks * (1 + Self.lanes))
            products = minimums + blocks
            self.blocks = blocks
        }

        /// Q4_1 block b: byte j holds value j (low nibble) and value j + 16 (high nibble).
        @inline(__always)
        func decodeQ4_1(_ row: UnsafeRawPointer, _ batch: TileTables) {
            let lanes = Self.lanes
            assert(batch.stride == lanes, "the tables are read 16 rows per block")
            for b in 0..<blocks {
                let block = row + 20 * b
                let q = block.loadUnaligned(fromByteOffset: 4, as: SIMD16<UInt8>.self)
                let out = UnsafeMutableRawPointer(values + 32 * b)
                out.storeBytes(of: q & 0x0F, as: SIMD16<UInt8>.self)
                out.storeBytes(of: q &>> 4, toByteOffset: 16, as: SIMD16<UInt8>.self)
                minimums[b] = HalfFloat.load(block, 2)
                let d = SIMD16<Float>(repeating: HalfFloat.load(block, 0))
                let scales = UnsafeRawPointer(batch.scales + lanes * b).loadUnaligned(as: SIMD16<Float>.self)
                UnsafeMutableRawPointer(products + lanes * b).storeBytes(of: d * scales, as: SIMD16<Float>.self)
            }
        }

        /// Against activation rows `t..<t+4` (`ActivationBuffer.bytes`): the four results, the
        /// minimum terms not yet added.
        @inline(__always)
        func dot4(_ a: ActivationBuffer, first t: Int) -> SIMD4<Float> {
            let stride = a.columns, lanes = Self.lanes
            let x = UnsafeRawPointer(a.bytes + t * stride)
            var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>(), acc2 = SIMD8<Float>(), acc3 = SIMD8<Float>()
            for b in 0..<blocks {
                let w = UnsafeRawPointer(values + 32 * b), p = products + lanes * b + t
                var y = x + 32 * b
                acc0.addProduct(SmallBlockDot.bytePairSums(w, y), SIMD8(repeating: p[0]))
                y += stride
                acc1.addProduct(SmallBlockDot.bytePairSums(w, y), SIMD8(repeating: p[1]))
                y += stride
                acc2.addProduct(SmallBlockDot.bytePairSums(w, y), SIMD8(repeating: p[2]))
                y += stride
                acc3.addProduct(SmallBlockDot.bytePairSums(w, y), SIMD8(repeating: p[3]))
            }
            return SIMD4(IntegerDot.sum8(acc0), IntegerDot.sum8(acc1), IntegerDot.sum8(acc2), IntegerDot.sum8(acc3))
        }

        /// Against activation row `t` alone.
        @inline(__always)
        func dot(_ a: ActivationBuffer, row t: Int) -> Float {
            let x = UnsafeRawPointer(a.bytes + t * a.columns), lanes = Self.lanes
            var acc = SIMD8<Float>()
            for b in 0..<blocks {
                acc.addProduct(SmallBlockDot.bytePairSums(UnsafeRawPointer(values + 32 * b), x + 32 * b), SIMD8(repeating: products[lanes * b + t]))
            }
            return IntegerDot.sum8(acc)
        }

        /// Σ m_w·s_a in block order (`vec_dot_q4_1_q8_1`'s `summs`), every row of the batch at once.
        @inline(__always)
        func minimumTerms(_ batch: TileTables) -> SIMD16<Float> {
            guard let sums = batch.sums else { assertionFailure("Q4_1's tables carry the block sums"); return SIMD16() }
            var m = SIMD16<Float>()
            for b in 0..<blocks {
                m.addProduct(SIMD16(repeating: minimums[b]), UnsafeRawPointer(sums + Self.lanes * b).loadUnaligned(as: SIMD16<Float>.self))
            }
            return m
        }
    }

    /// A block's 8 lane sums (values 4i..<4i+4) of unsigned bytes at `w` times signed bytes at `a`,
    /// as floats (exact: |sum| ≤ 4·15·127).
    @_transparent
    static func bytePairSums(_ w: UnsafeRawPointer, _ a: UnsafeRawPointer) -> SIMD8<Float> {
        let low = quadSums(multiplyAddBytes(w, a)), high = quadSums(multiplyAddBytes(w + 16, a + 16))
        let v = SIMD8<Int32>(lowHalf: low, highHalf: high)
        return SIMD8(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]), Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]))
    }

    /// Adjacent Int16 pairs summed into Int32 lanes (through a bit cast; see the type's comment).
    @_transparent
    static func quadSums(_ x: SIMD8<Int16>) -> SIMD4<Int32> {
        // The high half of p + (p << 16) is hi + lo (no carry: the low half adds zero); it fits in
        // Int16 (|hi + lo| ≤ 4·15·127), so an arithmetic shift sign-extends it.
        let p = unsafeBitCast(x, to: SIMD4<Int32>.self)
        return (p &+ (p &<< 16)) &>> 16
    }

    /// `vpmaddubsw` on 16 bytes: lane k = x[2k]·y[2k] + x[2k+1]·y[2k+1], x unsigned, y signed,
    /// saturated to Int16.
    @_transparent
    static func multiplyAddBytes(_ xp: UnsafeRawPointer, _ yp: UnsafeRawPointer) -> SIMD8<Int16> {
        let x = xp.loadUnaligned(as: SIMD16<UInt8>.self), y = yp.loadUnaligned(as: SIMD16<Int8>.self)
        let xe = SIMD8<Int32>(Int32(x[0]), Int32(x[2]), Int32(x[4]), Int32(x[6]), Int32(x[8]), Int32(x[10]), Int32(x[12]), Int32(x[14]))
        let xo = SIMD8<Int32>(Int32(x[1]), Int32(x[3]), Int32(x[5]), Int32(x[7]), Int32(x[9]), Int32(x[11]), Int32(x[13]), Int32(x[15]))
        let ye = SIMD8<Int32>(Int32(y[0]), Int32(y[2]), Int32(y[4]), Int32(y[6]), Int32(y[8]), Int32(y[10]), Int32(y[12]), Int32(y[14]))
        let yo = SIMD8<Int32>(Int32(y[1]), Int32(y[3]), Int32(y[5]), Int32(y[7]), Int32(y[9]), Int32(y[11]), Int32(y[13]), Int32(y[15]))
        var c = xe &* ye &+ xo &* yo
        let low = SIMD8<Int32>(repeating: -32768), high = SIMD8<Int32>(repeating: 32767)
        c.replace(with: low, where: c .< low)
        c.replace(with: high, where: c .> high)
        return SIMD8(Int16(truncatingIfNeeded: c[0]), Int16(truncatingIfNeeded: c[1]), Int16(truncatingIfNeeded: c[2]),
                     Int16(truncatingIfNeeded: c[3]), Int16(truncatingIfNeeded: c[4]), Int16(truncatingIfNeeded: c[5]),
                     Int16(truncatingIfNeeded: c[6]), Int16(truncatingIfNeeded: c[7]))
    }
}
