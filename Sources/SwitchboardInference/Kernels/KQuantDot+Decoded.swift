/// Prefill path for K-quant weights, built like `SmallBlockDot+Decoded`: each weight row is decoded
/// once into Int16 values with the sub-block scales already multiplied in (|q·scale| ≤ 945 for Q4_K,
/// ≤ 8064 for Q6_K) in the even / negated-odd layout, then multiplied against the activation rows
/// with `vpmaddwd` (`IntegerDot.pairFloat`). Integer sums are carried in float lanes, exact while
/// below 2^24, and the float arithmetic after them is llama.cpp's: its repacked Q4_K GEMM for Q4_K,
/// its `vec_dot_q6_K_q8_K` for Q6_K (which it does not repack on x86).
struct KQuantDecodedRow {
    /// `columns` Int16: per 64 values, 32 even-indexed scaled values then 32 odd-indexed ones negated.
    let values: UnsafeMutablePointer<Int16>
    /// Per block: the weight scale `d`, and for Q4_K `dmin`.
    let d: UnsafeMutablePointer<Float>
    let dmin: UnsafeMutablePointer<Float>
    /// Per block, 64 bytes: Q4_K's eight 6-bit mins, or Q6_K's sixteen scales (for the offsets).
    let mins: UnsafeMutablePointer<SIMD8<Int32>>
    let scales: UnsafeMutablePointer<SIMD16<Int32>>

    /// Runs `body` with `rows` decoded rows in one 64-byte-aligned stack allocation.
    static func withScratch(columns: Int, rows: Int = 1, _ body: (KQuantDecodedRows) -> Void) {
        let blocks = columns / 256, rowBytes = (columns * 2 + blocks * 72 + 63) & ~63
        withUnsafeTemporaryAllocation(byteCount: rows * rowBytes, alignment: 64) { raw in
            guard let base = raw.baseAddress else { return }
            body(KQuantDecodedRows(base: base, count: rows, rowBytes: rowBytes, columns: columns))
        }
    }

    /// A row laid out at `base`: values, per-block mins or scales (64 bytes each), d, dmin.
    init(base: UnsafeMutableRawPointer, columns: Int) {
        let blocks = columns / 256
        values = base.bindMemory(to: Int16.self, capacity: columns)
        scales = (base + columns * 2).bindMemory(to: SIMD16<Int32>.self, capacity: blocks)
        mins = UnsafeMutableRawPointer(scales).bindMemory(to: SIMD8<Int32>.self, capacity: 2 * blocks)
        d = (base + columns * 2 + blocks * 64).bindMemory(to: Float.self, capacity: blocks)
        dmin = (base + columns * 2 + blocks * 68).bindMemory(to: Float.self, capacity: blocks)
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
            mins[2 * b] = sm.mins
        }
    }

    /// `signed`: q − 32 (the slab order needs only each block's total), else the unsigned q whose
    /// lane sums `q6K4` corrects with llama.cpp's per-lane offsets.
    func decodeQ6K(_ w: UnsafeRawPointer, blocks: Int, signed: Bool) {
        for b in 0..<blocks {
            let block = w + 210 * b
            for n in 0..<2 {
                for p in 0..<2 {
                    let scale = KQuantDecodedRow.doubled(KQuantDot.q6KScales(block, half: n, pair: p))
                    KQuantDecodedRow.store(KQuantDot.q6KPair(block, half: n, pair: p, offset: signed ? 32 : 0), scale: scale,
                                           values + 256 * b + 128 * n + 64 * p)
                }
            }
            scales[b] = KQuantDot.q6KAllScales(block)
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
    /// The lane sums of four rows' vectors folded to four partial sums each: lane 4r + k holds
    /// row r's lanes k, k+4, k+8 and k+12 (256-bit halves, then 128-bit lanes: a few shuffles).
    @inline(__always)
    static func fold(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>, _ c: SIMD16<Int32>, _ d: SIMD16<Int32>) -> SIMD16<Int32> {
        let ab = SIMD16(lowHalf: a.lowHalf &+ a.highHalf, highHalf: b.lowHalf &+ b.highHalf)
        let cd = SIMD16(lowHalf: c.lowHalf &+ c.highHalf, highHalf: d.lowHalf &+ d.highHalf)
        let e = SIMD16(lowHalf: SIMD8(lowHalf: ab.lowHalf.lowHalf, highHalf: ab.highHalf.lowHalf), highHalf: SIMD8(lowHalf: cd.lowHalf.lowHalf,
            highHalf: cd.highHalf.lowHalf))
        let f = SIMD16(lowHalf: SIMD8(lowHalf: ab.lowHalf.highHalf, highHalf: ab.highHalf.highHalf), highHalf: SIMD8(lowHalf: cd.lowHalf.highHalf,
            highHalf: cd.highHalf.highHalf))
        return e &+ f
    }

    /// Four chunks' `fold`s (lane 4r + k: chunk c's row r, partial k) to their totals, chunk-major:
    /// lane 4c + r = Σ_k q_c[4r + k]. Two shuffle-and-add rounds and one permute for all sixteen
    /// sums; folding each chunk to four sums on its own took twice the shuffles (Zen 4 profile).
    @inline(__always)
    static func totals(_ q0: SIMD16<Int32>, _ q1: SIMD16<Int32>, _ q2: SIMD16<Int32>, _ q3: SIMD16<Int32>) -> SIMD16<Int32> {
        // 64-bit unpacks within 128-bit lanes: row r's (p0+p2, p1+p3) of x, then of y.
        @inline(__always) func pairs(_ x: SIMD16<Int32>, _ y: SIMD16<Int32>) -> SIMD16<Int32> {
            let low = SIMD16(x[0], x[1], y[0], y[1], x[4], x[5], y[4], y[5], x[8], x[9], y[8], y[9], x[12], x[13], y[12], y[13])
            let high = SIMD16(x[2], x[3], y[2], y[3], x[6], x[7], y[6], y[7], x[10], x[11], y[10], y[11], x[14], x[15], y[14], y[15])
            return low &+ high
        }
        let t01 = pairs(q0, q1), t23 = pairs(q2, q3)
        // Lane 4r + c = row r's total of chunk c (t01's lanes 4r, 4r+1 are q0's halves, 4r+2, 4r+3 q1's).
        let low = SIMD16(t01[0], t01[2], t23[0], t23[2], t01[4], t01[6], t23[4], t23[6], t01[8], t01[10], t23[8], t23[10], t01[12], t01[14], t23[12],
                         t23[14])
        let high = SIMD16(t01[1], t01[3], t23[1], t23[3], t01[5], t01[7], t23[5], t23[7], t01[9], t01[11], t23[9], t23[11], t01[13], t01[15], t23[13],
                          t23[15])
        let u = low &+ high
        return SIMD16(u[0], u[4], u[8], u[12], u[1], u[5], u[9], u[13], u[2], u[6], u[10], u[14], u[3], u[7], u[11], u[15])
    }

    /// Q4_K against four activation rows as llama.cpp's repacked `gemm_q4_K_8x8_q8_K` computes it:
    /// per pair of sub-blocks (64 values) the scaled integer sum and the mins term each enter their
    /// accumulator with one fused multiply-add by `d·d_a` / `dmin·d_a`; the result is acc − accMin.
    static func q4K4(decoded w: KQuantDecodedRow, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), blocks: Int) -> SIMD4<Float> {
        var acc = SIMD4<Float>(), accMin = SIMD4<Float>()
        for b in 0..<blocks {
            let da = SIMD4<Float>(a.0.scales[b], a.1.scales[b], a.2.scales[b], a.3.scales[b])
            let scale = w.d[b] * da, scaleMin = w.dmin[b] * da
            let mn = w.mins[2 * b]
            @inline(__always) func mins(_ r: ActivationRow) -> SIMD4<Int32> {
                let p = UnsafeRawPointer(r.groupSums + 8 * b).loadUnaligned(as: SIMD8<Int32>.self) &* mn
                return p.evenHalf &+ p.oddHalf
            }
            let m0 = mins(a.0), m1 = mins(a.1), m2 = mins(a.2), m3 = mins(a.3)
            @inline(__always) func chunk(_ c: Int) -> SIMD16<Int32> {
                let off = 256 * b + 64 * c
                let v = w.values + off
                return fold(IntegerDot.pairInt(v, a.0.planes + off), IntegerDot.pairInt(v, a.1.planes + off),
                            IntegerDot.pairInt(v, a.2.planes + off), IntegerDot.pairInt(v, a.3.planes + off))
            }
            // The four chunks' sums in one vector, converted at once; then one fused multiply-add
            // per chunk, in chunk order.
            let f = IntegerDot.convert(totals(chunk(0), chunk(1), chunk(2), chunk(3)))
            acc.addProduct(f.lowHalf.lowHalf, scale); acc.addProduct(f.lowHalf.highHalf, scale)
            acc.addProduct(f.highHalf.lowHalf, scale); acc.addProduct(f.highHalf.highHalf, scale)
            // The mins terms in the same order, after the loop: inside it `m0[c]` (a loop index, the
            // loop is not unrolled) went through the stack and stalled on store forwarding.
            @inline(__always) func minimum(_ i: SIMD4<Int32>) { accMin.addProduct(SIMD4<Float>(i), scaleMin) }
            minimum(SIMD4(m0[0], m1[0], m2[0], m3[0])); minimum(SIMD4(m0[1], m1[1], m2[1], m3[1]))
            minimum(SIMD4(m0[2], m1[2], m2[2], m3[2])); minimum(SIMD4(m0[3], m1[3], m2[3], m3[3]))
        }
        return acc - accMin
    }

    /// `q6K` for four activation rows from a decoded row. The 16-lane sums (16 values each) are
    /// below 2^24; their 8-lane folds almost always are too — when one is not, that block is redone
    /// in integers, so the result is `q6K`'s bit for bit either way.
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
            let d = w.d[b], sc = w.scales[b]
            @inline(__always) func lanes(_ f: SIMD16<Float>, _ r: ActivationRow) -> SIMD8<Float> {
                let folded = f.lowHalf + f.highHalf
                let offsets = q6KOffsets(sc, r.sixteenSums + 16 * b)
                // Exact fold: one rounding of the exact lane value, as `vcvtdq2ps` does.
                let limit = SIMD8<Float>(repeating: 16_777_216)
                guard any((folded .>= limit) .| (folded .<= -limit)) else { return folded - SIMD8<Float>(offsets) }
                var exact = SIMD16<Int32>()
                for c in 0..<4 { exact &+= IntegerDot.pairInt(w.values + 256 * b + 64 * c, r.planes + 256 * b + 64 * c) }
                return SIMD8<Float>(exact.lowHalf &+ exact.highHalf &- offsets)
            }
            t0.addProduct(lanes(f0, a.0), SIMD8(repeating: a.0.scales[b] * d))
            t1.addProduct(lanes(f1, a.1), SIMD8(repeating: a.1.scales[b] * d))
            t2.addProduct(lanes(f2, a.2), SIMD8(repeating: a.2.scales[b] * d))
            t3.addProduct(lanes(f3, a.3), SIMD8(repeating: a.3.scales[b] * d))
        }
        return SIMD4(IntegerDot.sum8(t0), IntegerDot.sum8(t1), IntegerDot.sum8(t2), IntegerDot.sum8(t3))
    }

    /// `q6KSlab` for four activation rows from a row decoded `signed`: the block total is the same
    /// integer however the −32 is spread. Per pair of chunks the float lanes hold integers below
    /// 2^22 (|q − 32|·|scale|·127·8), converted exactly, then totalled in integers.
    static func q6K4Slab(decoded w: KQuantDecodedRow, _ a: (ActivationRow, ActivationRow, ActivationRow, ActivationRow),
                         blocks: Int) -> SIMD4<Float> {
        var total = SIMD4<Float>()
        for b in 0..<blocks {
            @inline(__always) func exact(_ r: ActivationRow) -> Int32 {
                let off = 256 * b, v = w.values + off, p = r.planes + off
                let first = IntegerDot.pairFloat(v, p) + IntegerDot.pairFloat(v + 64, p + 64)
                let second = IntegerDot.pairFloat(v + 128, p + 128) + IntegerDot.pairFloat(v + 192, p + 192)
                return (IntegerDot.int(first) &+ IntegerDot.int(second)).wrappedSum()
            }
            let ints = SIMD4<Int32>(exact(a.0), exact(a.1), exact(a.2), exact(a.3))
            let x = SIMD4<Float>(ints) * w.d[b]
            total.addProduct(x, SIMD4<Float>(a.0.scales[b], a.1.scales[b], a.2.scales[b], a.3.scales[b]))
        }
        return total
    }
}
