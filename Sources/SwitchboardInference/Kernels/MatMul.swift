/// Matrix × activations products. `input` holds `count` f32 rows (stride `columns`), already
/// quantized into `quantized` for integer formats; results go to `out[t * outStride + r]`.
///
/// Every result is bit-identical to llama.cpp's (x86) for the same batch, whose kernels pick their
/// float order by batch size: `count` rows here may be a slice of a `batch`-row batch (nil: the
/// slice is the batch), starting at a multiple of 4 rows. `batch` 1 with several rows: each row is
/// a batch of its own (the sequences of a batched decode step).
enum MatMul {
    static func multiply(_ w: WeightMatrix, input: UnsafePointer<Float>, quantized: ActivationBuffer?, count: Int, batch: Int? = nil,
                         rows: Range<Int>, out: UnsafeMutablePointer<Float>, outStride: Int) {
        guard let q = quantized, w.format.activationKind != nil else {
            floatRows(w, input: input, count: count, rows: rows, out: out, outStride: outStride)
            return
        }
        switch w.format {
        case .q8_0: small(Q8_0Codec.self, w, q, count: count, rows: rows, out: out, outStride: outStride)
        case .q4_0: small(Q4_0Codec.self, w, q, count: count, rows: rows, out: out, outStride: outStride)
        case .q4_1 where q.usesByteRows(count: count):
            q4_1Bytes(w, q, count: count, rows: rows, out: out, outStride: outStride)
        case .q4_1: small(Q4_1Codec.self, w, q, count: count, rows: rows, out: out, outStride: outStride)
        case .q5_0: small(Q5_0Codec.self, w, q, count: count, rows: rows, out: out, outStride: outStride)
        case .q4_K: kquant(KQuantDot.q4K, { $0.decodeQ4K($1, blocks: $2) }, KQuantDot.q4K4(decoded:_:blocks:), w, q, count: count,
                           single: batch == 1, rows: rows, out: out, outStride: outStride)
        case .q6_K where KQuantDot.q6KUsesSlabOrder(batch: batch ?? count):
            kquant(KQuantDot.q6KSlab, { $0.decodeQ6K($1, blocks: $2, signed: true) }, KQuantDot.q6K4Slab(decoded:_:blocks:), w, q, count: count,
                   single: false, rows: rows, out: out, outStride: outStride)
        case .q6_K: kquant(KQuantDot.q6K, { $0.decodeQ6K($1, blocks: $2, signed: false) }, KQuantDot.q6K4(decoded:_:blocks:), w, q,
                           count: count, single: batch == 1, rows: rows, out: out, outStride: outStride)
        case .f32, .f16, .bf16: floatRows(w, input: input, count: count, rows: rows, out: out, outStride: outStride)
        }
    }

    @inline(__always)
    private static func small<C: SmallBlockCodec>(_ format: C.Type, _ w: WeightMatrix, _ a: ActivationBuffer, count: Int, rows: Range<Int>,
                                                  out: UnsafeMutablePointer<Float>, outStride: Int) {
        assert(a.kind == .q8_0, "32-value-block weights take Q8_0 activations")
        let blocks = w.columns / 32
        if count > 1 && count < 16 {
            if count >= 4 && a.decodeKernel == .registers {
                decodedRows(format, w, a, count: count, rows: rows, out: out, outStride: outStride)
            } else {
                registerRows(format, w, a, count: count, rows: rows, out: out, outStride: outStride)
            }
            return
        }
        if count == 1 {
            let paired = a.pairedRow(0)
            var r = rows.lowerBound
            let ahead = w.prefetchRows
            while r < rows.upperBound {
                if r + ahead + 2 <= w.rows { Prefetch.read(w.row(r + ahead), count: 2 * w.rowBytes) }
                let r1 = min(r + 1, rows.upperBound - 1)  // an odd last row is paired with itself
                let (v0, v1) = SmallBlockDot.dotRowPair(format, w.row(r), w.row(r1), paired, blocks: blocks)
                out[r] = v0; out[r1] = v1
                r += 2
            }
            return
        }
        // Prefill: decode a group of weight rows once, in row pairs, then run every 4-row activation
        // tile against the whole group, so the tile is reused from L1 instead of streamed from L2
        // once per weight row. Scratch: 4 pairs × 192 bytes per block (15 KB for 640 columns; the
        // allocation falls back to the heap if a wider model's does not fit the stack).
        let pairs = MatMul.smallPairGroup, pairBytes = SmallBlockDot.DecodedRowPair.bytes(blocks: blocks)
        let shifts = a.pairedRow(0).shifts
        let tableBytes = SmallBlockDot.TileTables.bytes(blocks: blocks, count: count, minimum: C.hasMinimum)
        withUnsafeTemporaryAllocation(byteCount: pairs * pairBytes + tableBytes, alignment: 64) { scratch in
            guard let base = scratch.baseAddress else { return }
            let tables = SmallBlockDot.TileTables(base + pairs * pairBytes, a, blocks: blocks, count: count, minimum: C.hasMinimum)
            var first = rows.lowerBound
            while first < rows.upperBound {
                let n = min(2 * pairs, rows.upperBound - first)
                @inline(__always) func decoded(_ p: Int) -> SmallBlockDot.DecodedRowPair {
                    SmallBlockDot.DecodedRowPair(base + p * pairBytes, blocks: blocks)
                }
                @inline(__always) func rowsOf(_ p: Int) -> (Int, Int) { (first + 2 * p, min(first + 2 * p + 1, first + n - 1)) }
                for p in 0..<(n + 1) / 2 {
                    let (r0, r1) = rowsOf(p)
                    decoded(p).decode(format, w.row(r0), w.row(r1), shifts: shifts)
                }
                var t = 0
                while t + 4 <= count {
                    for p in 0..<(n + 1) / 2 {
                        let (r0, r1) = rowsOf(p)
                        let (v0, v1) = decoded(p).dot4(a, first: t, tables: tables, minimum: C.hasMinimum)
                        for i in 0..<4 { out[(t + i) * outStride + r0] = v0[i]; out[(t + i) * outStride + r1] = v1[i] }
                    }
                    t += 4
                }
                while t < count {
                    for p in 0..<(n + 1) / 2 {
                        let (r0, r1) = rowsOf(p)
                        let (v0, v1) = decoded(p).dot(a.pairedRow(t), minimum: C.hasMinimum)
                        out[t * outStride + r0] = v0; out[t * outStride + r1] = v1
                    }
                    t += 1
                }
                first += n
            }
        }
    }

    /// A batched decode step on the register kernel (2…15 rows on AVX2 hosts, 2 or 3 on AVX-512,
    /// where `decodedRows` takes four and more): weight rows in register pairs against four
    /// activation rows at a time, then two, then one; Q4_1's minimum terms for every row at once
    /// from block-major sums.
    @inline(__always)
    private static func registerRows<C: SmallBlockCodec>(_ format: C.Type, _ w: WeightMatrix, _ a: ActivationBuffer, count: Int,
                                                         rows: Range<Int>, out: UnsafeMutablePointer<Float>, outStride: Int) {
        let blocks = w.columns / 32
        withUnsafeTemporaryAllocation(of: Float.self, capacity: C.hasMinimum ? blocks * 16 : 0) { scratch in
            let sums = scratch.baseAddress
            if C.hasMinimum, let sums { SmallBlockDot.blockMajor(a.blockSums, blocks: blocks, count: count, stride: 16, into: sums) }
            var r = rows.lowerBound
            let ahead = w.prefetchRows
            while r < rows.upperBound {
                if r + ahead + 2 <= w.rows { Prefetch.read(w.row(r + ahead), count: 2 * w.rowBytes) }
                let r1 = min(r + 1, rows.upperBound - 1)
                var m0 = SIMD16<Float>(), m1 = SIMD16<Float>()
                if C.hasMinimum, let sums {
                    (m0, m1) = SmallBlockDot.minimumTerms(w.row(r), w.row(r1), blockBytes: C.blockBytes, blocks: blocks, sums: sums)
                }
                var t = 0
                while t + 4 <= count {
                    let activations = (a.pairedRow(t), a.pairedRow(t + 1), a.pairedRow(t + 2), a.pairedRow(t + 3))
                    let (v0, v1) = SmallBlockDot.dotRowPair4(format, w.row(r), w.row(r1), activations, blocks: blocks)
                    for i in 0..<4 {
                        // Only Q4_1 adds a term (+0 would turn a −0 result into +0).
                        out[(t + i) * outStride + r] = C.hasMinimum ? v0[i] + m0[t + i] : v0[i]
                        out[(t + i) * outStride + r1] = C.hasMinimum ? v1[i] + m1[t + i] : v1[i]
                    }
                    t += 4
                }
                if t + 2 <= count {
                    let (v0, v1) = SmallBlockDot.dotRowPair2(format, w.row(r), w.row(r1), (a.pairedRow(t), a.pairedRow(t + 1)), blocks: blocks)
                    for i in 0..<2 {
                        out[(t + i) * outStride + r] = C.hasMinimum ? v0[i] + m0[t + i] : v0[i]
                        out[(t + i) * outStride + r1] = C.hasMinimum ? v1[i] + m1[t + i] : v1[i]
                    }
                    t += 2
                }
                while t < count {
                    let (v0, v1) = SmallBlockDot.dotRowPair(format, w.row(r), w.row(r1), a.pairedRow(t), blocks: blocks)
                    out[t * outStride + r] = v0; out[t * outStride + r1] = v1
                    t += 1
                }
                r += 2
            }
        }
    }

    /// A batched decode step of 4…15 rows: each weight row pair decoded once into L1 scratch (Int16
    /// values, both rows' scales), then the prefill tiles' `dot4` for every four activation rows and
    /// the one-row `dot` for the rest. Against `registerRows`, which unpacks a pair again for every
    /// four rows and widens Int16 products with shifts, the decoded operands are `vpmaddwd` memory
    /// operands, which pays on AVX-512 hosts only: on AVX2 the register kernel is faster (the
    /// measurements are in git history and `Docs/Performance.md`).
    @inline(__always)
    private static func decodedRows<C: SmallBlockCodec>(_ format: C.Type, _ w: WeightMatrix, _ a: ActivationBuffer, count: Int,
                                                        rows: Range<Int>, out: UnsafeMutablePointer<Float>, outStride: Int) {
        let blocks = w.columns / 32, pairBytes = SmallBlockDot.DecodedRowPair.bytes(blocks: blocks)
        let tableBytes = SmallBlockDot.TileTables.bytes(blocks: blocks, count: count, minimum: C.hasMinimum)
        withUnsafeTemporaryAllocation(byteCount: pairBytes + tableBytes, alignment: 64) { scratch in
            guard let base = scratch.baseAddress else { return }
            let pair = SmallBlockDot.DecodedRowPair(base, blocks: blocks)
            let tables = SmallBlockDot.TileTables(base + pairBytes, a, blocks: blocks, count: count, minimum: C.hasMinimum)
            let shifts = a.pairedRow(0).shifts, ahead = w.prefetchRows
            var r = rows.lowerBound
            while r < rows.upperBound {
                if r + ahead + 2 <= w.rows { Prefetch.read(w.row(r + ahead), count: 2 * w.rowBytes) }
                let r1 = min(r + 1, rows.upperBound - 1)
                pair.decode(format, w.row(r), w.row(r1), shifts: shifts)
                var t = 0
                while t + 4 <= count {
                    let (v0, v1) = pair.dot4(a, first: t, tables: tables, minimum: C.hasMinimum)
                    for i in 0..<4 { out[(t + i) * outStride + r] = v0[i]; out[(t + i) * outStride + r1] = v1[i] }
                    t += 4
                }
                while t < count {
                    let (v0, v1) = pair.dot(a.pairedRow(t), minimum: C.hasMinimum)
                    out[t * outStride + r] = v0; out[t * outStride + r1] = v1
                    t += 1
                }
                r += 2
            }
        }
    }

    /// A batched decode step with Q4_1 weights on the `.bytes` kernel: each weight row unpacked to
    /// bytes once, then multiplied with the activation rows four at a time.
    private static func q4_1Bytes(_ w: WeightMatrix, _ a: ActivationBuffer, count: Int, rows: Range<Int>, out: UnsafeMutablePointer<Float>,
                                  outStride: Int) {
        let blocks = w.columns / 32, ahead = w.prefetchRows
        let rowBytes = SmallBlockDot.ByteRow.bytes(blocks: blocks)
        let lanes = SmallBlockDot.ByteRow.lanes
        let tableBytes = SmallBlockDot.TileTables.bytes(blocks: blocks, count: count, minimum: true, minimumStride: lanes)
        withUnsafeTemporaryAllocation(byteCount: rowBytes + tableBytes, alignment: 64) { scratch in
            guard let base = scratch.baseAddress else { return }
            let row = SmallBlockDot.ByteRow(base, blocks: blocks)
            let batch = SmallBlockDot.TileTables(base + rowBytes, a, blocks: blocks, count: count, minimum: true, minimumStride: lanes)
            for r in rows {
                if r + ahead < w.rows { Prefetch.read(w.row(r + ahead), count: w.rowBytes) }
                row.decodeQ4_1(w.row(r), batch)
                let m = row.minimumTerms(batch)
                var t = 0
                while t + 4 <= count {
                    let v = row.dot4(a, first: t)
                    for i in 0..<4 { out[(t + i) * outStride + r] = v[i] + m[t + i] }
                    t += 4
                }
                while t < count {
                    out[t * outStride + r] = row.dot(a, row: t) + m[t]
                    t += 1
                }
            }
        }
    }

    /// Row pairs of 32-value-block weights decoded together in prefill.
    static var smallPairGroup: Int { 4 }

    /// K-quant weight rows decoded together in prefill (the activation tile is reused across them).
    static var rowGroup: Int { 4 }

    /// Prefill decodes groups of weight rows once (`KQuantDecodedRow`) for all their 4-row tiles.
    /// `single`: every activation row is a one-row batch of its own (GEMV order), however many.
    @inline(__always)
    private static func kquant(_ one: (UnsafeRawPointer, ActivationRow, Int) -> Float,
                               _ decode: (KQuantDecodedRow, UnsafeRawPointer, Int) -> Void,
                               _ four: (KQuantDecodedRow, (ActivationRow, ActivationRow, ActivationRow, ActivationRow), Int) -> SIMD4<Float>,
                               _ w: WeightMatrix, _ a: ActivationBuffer, count: Int, single: Bool,
                               rows: Range<Int>, out: UnsafeMutablePointer<Float>, outStride: Int) {
        let blocks = w.columns / 256
        guard count >= 4 && !single else {
            let ahead = w.prefetchRows
            for r in rows {
                if r + ahead < w.rows { Prefetch.read(w.row(r + ahead), count: w.rowBytes) }
                for t in 0..<count { out[t * outStride + r] = one(w.row(r), a.row(t), blocks) }
            }
            return
        }
        KQuantDecodedRow.withScratch(columns: w.columns, rows: MatMul.rowGroup) { decoded in
            var first = rows.lowerBound
            while first < rows.upperBound {
                let n = min(decoded.count, rows.upperBound - first)
                var t = 0
                for j in 0..<n { decode(decoded[j], w.row(first + j), blocks) }
                while t + 4 <= count {
                    for j in 0..<n {
                        let v = four(decoded[j], (a.row(t), a.row(t + 1), a.row(t + 2), a.row(t + 3)), blocks)
                        for i in 0..<4 { out[(t + i) * outStride + first + j] = v[i] }
                    }
                    t += 4
                }
                for r in first..<first + n {
                    var u = t
                    while u < count {
                        out[u * outStride + r] = one(w.row(r), a.row(u), blocks)
                        u += 1
                    }
                }
                first += n
            }
        }
    }

    /// Float weights: dequantize each row once, then dot with every input row.
    private static func floatRows(_ w: WeightMatrix, input: UnsafePointer<Float>, count: Int, rows: Range<Int>,
                                  out: UnsafeMutablePointer<Float>, outStride: Int) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: w.columns) { buffer in
            guard let row = buffer.baseAddress else { return }
            for r in rows {
                w.dequantizeRow(r, into: row)
                for t in 0..<count {
                    out[t * outStride + r] = VectorMath.dot(row, input + t * w.columns, count: w.columns)
                }
            }
        }
    }
}
