/// Prefill path for K-quant weights, built like `SmallBlockDot+Decoded`: each weight row is decoded
/// once into Int16 values with the sub-block scales already multiplied in (|q·scale| ≤ 945 for Q4_K,
/// ≤ 4096 for Q6_K) in the even / negated-odd layout, then multiplied against the activation rows
/// with `vpmaddwd` (`IntegerDot.pairFloat`). Per-lane sums are accumulated in float, which is exact
/// here (every partial sum is an integer below 2^24), and turned back into the integers the 1-row
/// kernels produce, so results are bit-identical to `q4K4` / `q6K4`.
struct KQuantDecodedRow {
    /// `columns` Int16: per 64 values, 32 even-indexed scaled values then 32 odd-indexed ones negated.
    let values: UnsafeMutablePointer<Int16>
    /// Per block: the weight scale `d`, and for Q4_K `dmin`.
    let d: UnsafeMutablePointer<Float>
    let dmin: UnsafeMutablePointer<Float>
    /// Q4_K only: per block the eight 6-bit mins.
    let mins: UnsafeMutablePointer<SIMD8<Int32>>

    /// Runs `body` with `rows` decoded rows in one 64-byte-aligned stack allocation.
    static func withScratch(columns: Int, rows: Int = 1, _ body: (KQuantDecodedRows) -> Void) {
        let blocks = columns / 256, rowBytes = (columns * 2 + blocks * 40 + 63) & ~63
        withUnsafeTemporaryAllocation(byteCount: rows * rowBytes, alignment: 64) { raw in
            guard let base = raw.baseAddress else { return }
            body(KQuantDecodedRows(base: base, count: rows, rowBytes: rowBytes, columns: columns))
        }
    }

    /// A row laid out at `base`: values, mins (Q4_K), d, dmin.
    init(base: UnsafeMutableRawPointer, columns: Int) {
        let blocks = columns / 256
        values = base.bindMemory(to: Int16.self, capacity: columns)
        mins = (base + columns * 2).bindMemory(to: SIMD8<Int32>.self, capacity: blocks)
        d = (base + columns * 2 + blocks * 32).bindMemory(to: Float.self, capacity: blocks)
        dmin = (base + columns * 2 + blocks * 36).bindMemory(to: Float.self, capacity: blocks)
    }

    /// Stores even lanes × `scale` and −(odd lanes × `scale`) at `out`.
    @inline(__always)
    static func store(_ u: (SIMD32<Int16>, SIMD32<Int16>), scale: SIMD32<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: u.0 &* scale, as: SIMD32<Int16>.self)
        raw.storeBytes(of: SIMD32<Int16>() &- u.1 &* scale, toByteOffset: 64, as: SIMD32<Int16>.self)
    }

    /// Every Int16 of each 32-bit lane = the lane's (small) Int32 value.
    @inline(__always)
    static func doubled(_ v: SIMD16<Int32>) -> SIMD32<Int16> {
        let u = unsafeBitCast(v, to: SIMD16<UInt32>.self) & 0xFFFF
        return unsafeBitCast(u | u &<< 16, to: SIMD32<Int16>.self)
    }

    func decodeQ4K(_ w: UnsafeRawPointer, blocks: Int) {
        for b in 0..<blocks {
            let block = w + 144 * b
            let sm = KQuantDot.q4KScales(block)
            for c in 0..<4 {
                let scale = KQuantDecodedRow.doubled(IntegerDot.halves(sm.scales[2 * c], sm.scales[2 * c + 1]))
                KQuantDecodedRow.store(KQuantDot.q4KChunk(block, c), scale: scale, values + 256 * b + 64 * c)
            }
            d[b] = HalfFloat.load(block, 0)
            dmin[b] = HalfFloat.load(block, 2)
            mins[b] = sm.mins
        }
    }

    func decodeQ6K(_ w: UnsafeRawPointer, blocks: Int) {
        for b in 0..<blocks {
            let block = w + 210 * b
            for n in 0..<2 {
                for p in 0..<2 {
                    let scale = KQuantDecodedRow.doubled(KQuantDot.q6KScales(block, half: n, pair: p))
                    KQuantDecodedRow.store(KQuantDot.q6KPair(block, half: n, pair: p), scale: scale, values + 256 * b + 128 * n + 64 * p)
                }
            }
            d[b] = HalfFloat.load(block, 208)
        }
    }
}

/// Scratch for several decoded rows, `rowBytes` (a multiple of 64) apart.
struct KQuantDecodedRows {
    let base: UnsafeMutableRawPointer
    let count: Int
    let rowBytes: Int
    let columns: Int

    subscript(_ index: Int) -> KQuantDecodedRow {
        KQuantDecodedRow(base: base + index * rowBytes, columns: columns)
    }
}

extension KQuantDot {
    /// Exact Float → Int32 for integral |x| < 2^22.
    @inline(__always)
    static func int(_ v: SIMD16<Float>) -> SIMD16<Int32> {
        unsafeBitCast(v + 12_582_912, to: SIMD16<Int32>.self) &- 0x4B40_0000
    }

    /// `q4K4` from a decoded row.
    static func q4K4(decoded w: KQuantDecodedRow, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        var acc = SIMD4<Float>(), accMin = SIMD4<Float>()
        for b in 0..<blocks {
            var f0 = SIMD16<Float>(), f1 = SIMD16<Float>(), f2 = SIMD16<Float>(), f3 = SIMD16<Float>()
            for c in 0..<4 {
                let off = 256 * b + 64 * c
                let v = w.values + off
                f0 += IntegerDot.pairFloat(v, a.0.planes + off)
                f1 += IntegerDot.pairFloat(v, a.1.planes + off)
                f2 += IntegerDot.pairFloat(v, a.2.planes + off)
                f3 += IntegerDot.pairFloat(v, a.3.planes + off)
            }
            let mn = w.mins[b]
            func mins(_ r: ActivationRow) -> Float {
                Float((UnsafeRawPointer(r.groupSums + 8 * b).loadUnaligned(as: SIMD8<Int32>.self) &* mn).wrappedSumTree)
            }
            let ints = SIMD4<Float>(Float(int(f0).wrappedSumTree), Float(int(f1).wrappedSumTree), Float(int(f2).wrappedSumTree), Float(int(f3).wrappedSumTree))
            let m = SIMD4<Float>(mins(a.0), mins(a.1), mins(a.2), mins(a.3))
            let scales = SIMD4<Float>(a.0.scales[b], a.1.scales[b], a.2.scales[b], a.3.scales[b])
            acc.addProduct(ints, w.d[b] * scales)
            accMin.addProduct(m, w.dmin[b] * scales)
        }
        return acc - accMin
    }

    /// `q6K4` from a decoded row: the 8-lane sums (low + high half of the 16 lanes) are below 2^24,
    /// so the float sums are the exact values `floatWide` produces.
    static func q6K4(decoded w: KQuantDecodedRow, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        var t0 = SIMD8<Float>(), t1 = SIMD8<Float>(), t2 = SIMD8<Float>(), t3 = SIMD8<Float>()
        for b in 0..<blocks {
            var f0 = SIMD16<Float>(), f1 = SIMD16<Float>(), f2 = SIMD16<Float>(), f3 = SIMD16<Float>()
            for c in 0..<4 {
                let off = 256 * b + 64 * c
                let v = w.values + off
                f0 += IntegerDot.pairFloat(v, a.0.planes + off)
                f1 += IntegerDot.pairFloat(v, a.1.planes + off)
                f2 += IntegerDot.pairFloat(v, a.2.planes + off)
                f3 += IntegerDot.pairFloat(v, a.3.planes + off)
            }
            let d = w.d[b]
            t0.addProduct(f0.lowHalf + f0.highHalf, SIMD8(repeating: a.0.scales[b] * d))
            t1.addProduct(f1.lowHalf + f1.highHalf, SIMD8(repeating: a.1.scales[b] * d))
            t2.addProduct(f2.lowHalf + f2.highHalf, SIMD8(repeating: a.2.scales[b] * d))
            t3.addProduct(f3.lowHalf + f3.highHalf, SIMD8(repeating: a.3.scales[b] * d))
        }
        return SIMD4(IntegerDot.sum8(t0), IntegerDot.sum8(t1), IntegerDot.sum8(t2), IntegerDot.sum8(t3))
    }
}
