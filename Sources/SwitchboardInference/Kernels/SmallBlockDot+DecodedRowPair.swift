/// Prefill path for 32-value-block weights: a pair of weight rows decoded once per batch slice into
/// the row-pair form of `dotRowPair` (per block: 32 Int16 even values, both rows; 32 Int16 odd
/// values, both rows; 16 Float scales, [d₀ ×8 | d₁ ×8]; Q4_1's minimums m₀, m₁ after all blocks),
/// then run against every activation row of the slice, 4 at a time. Per block and
/// activation row that is two `vpmaddwd`, a subtraction, a conversion and one fused multiply-add for
/// both weight rows; the scale products d·d_a of four rows are one multiply per block.
///
/// Results are bit-identical to `dotRowPair` and `dot` (the same Int32 lane sums, the same float
/// accumulation order: llama.cpp's, in which a batched product equals one-row products).
extension SmallBlockDot {
    struct DecodedRowPair {
        let values: UnsafeMutablePointer<Int16>
        let scales: UnsafeMutablePointer<Float>
        /// Per block (m₀, m₁), for formats with a minimum.
        let minimums: UnsafeMutablePointer<Float>
        let blocks: Int

        /// Scratch bytes for one pair (a multiple of 64, so pairs stay 64-byte aligned).
        static func bytes(blocks: Int) -> Int { blocks * (64 * 2 + 16 * 4) + (8 * blocks + 63) / 64 * 64 }

        init(_ base: UnsafeMutableRawPointer, blocks: Int) {
            values = base.bindMemory(to: Int16.self, capacity: 64 * blocks)
            scales = (base + 128 * blocks).bindMemory(to: Float.self, capacity: 16 * blocks)
            minimums = (base + 192 * blocks).bindMemory(to: Float.self, capacity: 2 * blocks)
            self.blocks = blocks
        }

        @inline(__always)
        func decode<C: SmallBlockCodec>(_ codec: C.Type, _ w0: UnsafeRawPointer, _ w1: UnsafeRawPointer, shifts: UnpackShifts) {
            let bytes = C.blockBytes
            for b in 0..<blocks {
                let x0 = w0 + b * bytes, x1 = w1 + b * bytes
                let u = C.unpackRows(x0, x1, shifts)
                let out = UnsafeMutableRawPointer(values + 64 * b)
                out.storeBytes(of: u.0, as: SIMD32<Int16>.self)
                out.storeBytes(of: u.1, toByteOffset: 64, as: SIMD32<Int16>.self)
                UnsafeMutableRawPointer(scales + 16 * b).storeBytes(of: IntegerDot.halves(HalfFloat.load(x0, 0), HalfFloat.load(x1, 0)),
                                                                    as: SIMD16<Float>.self)
                if C.hasMinimum { minimums[2 * b] = HalfFloat.load(x0, 2); minimums[2 * b + 1] = HalfFloat.load(x1, 2) }
            }
        }

        /// Σ m·s over the blocks for both rows, in block order (one scalar chain per row, as
        /// `vec_dot_q4_1_q8_1`'s `summs`).
        @inline(__always)
        private func minimumTerms(_ sums: UnsafePointer<Float>) -> (Float, Float) {
            var m0: Float = 0, m1: Float = 0
            for b in 0..<blocks { m0.addProduct(minimums[2 * b], sums[b]); m1.addProduct(minimums[2 * b + 1], sums[b]) }
            return (m0, m1)
        }

        /// Block b's lane sums with activations `a` (paired layout). The weights are loaded here,
        /// in each product: vectors loaded once and shared by several products lose the
        /// `vpmaddwd` match (`IntegerDot.multiplyAdd`).
        @inline(__always)
        private func sums(_ b: Int, _ a: UnsafePointer<Int16>) -> SIMD16<Int32> {
            let raw = UnsafeRawPointer(values + 64 * b)
            return IntegerDot.pairedInt((raw.loadUnaligned(as: SIMD32<Int16>.self), raw.loadUnaligned(fromByteOffset: 64, as: SIMD32<Int16>.self)), a)
        }

        @inline(__always)
        private func scales(_ b: Int) -> SIMD16<Float> { UnsafeRawPointer(scales + 16 * b).loadUnaligned(as: SIMD16<Float>.self) }

        /// Against one activation row: (row 0's result, row 1's result). `minimum`: the codec's
        /// `hasMinimum` (a constant once inlined).
        @inline(__always)
        func dot(_ a: PairedActivationRow, minimum: Bool) -> (Float, Float) {
            var acc = SIMD16<Float>()
            for b in 0..<blocks {
                acc.addProduct(IntegerDot.convert(sums(b, a.values + 64 * b)), scales(b) * SIMD16(repeating: a.scales[b]))
            }
            let (r0, r1) = (IntegerDot.sum8(acc.lowHalf), IntegerDot.sum8(acc.highHalf))
            guard minimum else { return (r0, r1) }
            let (m0, m1) = minimumTerms(a.sums)
            return (r0 + m0, r1 + m1)
        }

        /// Against activation rows `t..<t+4`: (row 0's results, row 1's results). Four accumulator
        /// pairs leave AVX2's sixteen registers room for the weights; eight spill every block.
        /// `tables`: the activations' scales (and, with `minimum`, block sums) block-major, so a
        /// block's four scale products are one multiply and the minimum terms one vector chain.
        @inline(__always)
        func dot4(_ a: ActivationBuffer, first t: Int, tables: TileTables, minimum: Bool) -> (SIMD4<Float>, SIMD4<Float>) {
            let stride = 2 * a.columns
            let values = a.paired + t * stride
            var acc0 = SIMD16<Float>(), acc1 = SIMD16<Float>(), acc2 = SIMD16<Float>(), acc3 = SIMD16<Float>()
            assert(!minimum || tables.sums != nil, "the minimum terms need the block-major sums")
            var m0 = SIMD4<Float>(), m1 = SIMD4<Float>()
            // The scale products first, one multiply per block: p[8b + 2r] = d₀·d_a(r), p[8b + 2r + 1]
            // = d₁·d_a(r). In the loop below each row's scale vector is a two-float load and a
            // permute instead of a 512-bit multiply of its own (within noise on Zen 4, but off the
            // pipes the `vpmaddwd` use). Computed in the same loop, LLVM turned the shared product
            // back into one multiply per row.
            let p = tables.products
            for b in 0..<blocks {
                let d0 = scales[16 * b], d1 = scales[16 * b + 8]
                let ws = SIMD8(d0, d1, d0, d1, d0, d1, d0, d1)
                let da = UnsafeRawPointer(tables.scales + b * tables.stride + t).loadUnaligned(as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(p + 8 * b).storeBytes(of: ws * SIMD8(da[0], da[0], da[1], da[1], da[2], da[2], da[3], da[3]),
                                                              as: SIMD8<Float>.self)
            }
            for b in 0..<blocks {
                @inline(__always) func step(_ r: Int, _ acc: inout SIMD16<Float>) {
                    let s = sums(b, values + r * stride + 64 * b)
                    acc.addProduct(IntegerDot.convert(s), IntegerDot.halves(p[8 * b + 2 * r], p[8 * b + 2 * r + 1]))
                }
                step(0, &acc0); step(1, &acc1); step(2, &acc2); step(3, &acc3)
                if minimum, let blockSums = tables.sums {
                    // Each lane is one row's `minimumTerms` chain, in the same block order.
                    let s = UnsafeRawPointer(blockSums + b * tables.stride + t).loadUnaligned(as: SIMD4<Float>.self)
                    m0.addProduct(SIMD4(repeating: minimums[2 * b]), s); m1.addProduct(SIMD4(repeating: minimums[2 * b + 1]), s)
                }
            }
            @inline(__always) func low(_ v: SIMD16<Float>) -> Float { IntegerDot.sum8(v.lowHalf) }
            @inline(__always) func high(_ v: SIMD16<Float>) -> Float { IntegerDot.sum8(v.highHalf) }
            let r0 = SIMD4(low(acc0), low(acc1), low(acc2), low(acc3))
            let r1 = SIMD4(high(acc0), high(acc1), high(acc2), high(acc3))
            return minimum ? (r0 + m0, r1 + m1) : (r0, r1)
        }
    }
}

extension SmallBlockDot {
    /// An activation buffer's per-block scales and (for formats with a minimum) block sums,
    /// block-major for the batched kernels: `stride` floats per block (zeros past the last row), the
    /// row count rounded up to 4 and at least `minimumStride` (the byte-row kernel reads 16 rows'
    /// worth per block). Also room for one tile's scale products (`DecodedRowPair.dot4`'s, 8 per
    /// block), so a thread's tables serve its tiles one at a time.
    struct TileTables {
        let scales: UnsafePointer<Float>
        let sums: UnsafePointer<Float>?
        let products: UnsafeMutablePointer<Float>
        let stride: Int

        static func stride(count: Int, minimumStride: Int) -> Int { max(minimumStride, (count + 3) & ~3) }

        static func bytes(blocks: Int, count: Int, minimum: Bool, minimumStride: Int = 4) -> Int {
            ((minimum ? 2 : 1) * stride(count: count, minimumStride: minimumStride) + 8) * blocks * 4
        }

        /// Fills `bytes(…)` at `base` from rows `0..<count` of `a`.
        init(_ base: UnsafeMutableRawPointer, _ a: ActivationBuffer, blocks: Int, count: Int, minimum: Bool, minimumStride: Int = 4) {
            stride = Self.stride(count: count, minimumStride: minimumStride)
            let tables = (minimum ? 2 : 1) * blocks * stride
            let table = base.bindMemory(to: Float.self, capacity: tables + 8 * blocks)
            SmallBlockDot.blockMajor(a.scales, blocks: blocks, count: count, stride: stride, into: table)
            if minimum { SmallBlockDot.blockMajor(a.blockSums, blocks: blocks, count: count, stride: stride, into: table + blocks * stride) }
            scales = UnsafePointer(table)
            sums = minimum ? UnsafePointer(table + blocks * stride) : nil
            products = table + tables
        }
    }

    /// Rows `0..<count` of a per-row, per-block table (`values[row * blocks + b]`: an activation
    /// buffer's scales or block sums) block-major, `stride` floats per block (zeros past `count`).
    static func blockMajor(_ values: UnsafePointer<Float>, blocks: Int, count: Int, stride: Int, into out: UnsafeMutablePointer<Float>) {
        for b in 0..<blocks {
            for t in 0..<stride { out[b * stride + t] = t < count ? values[t * blocks + b] : 0 }
        }
    }
}
