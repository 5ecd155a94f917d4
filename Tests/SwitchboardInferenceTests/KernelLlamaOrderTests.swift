import Testing
@testable import SwitchboardInference

/// The K-quant products must be bit-identical to llama.cpp's for the same batch (`LlamaOrder`):
/// Q4_K rows in groups of four take its repacked GEMM's order and the rest its GEMV's; Q6_K takes
/// `vec_dot`'s order below 8 rows and the tiled GEMM's from 8. Random rows plus the formats'
/// extreme magnitudes; also a batch computed in slices, as `InferenceSession` does.
@Suite struct KernelLlamaOrderTests {
    typealias Rng = KernelDotTests.Rng

    func expected(_ format: WeightFormat, _ w: UnsafeRawPointer, _ a: LlamaOrder.Q8K, columns: Int, row t: Int, batch: Int) -> Float {
        let blocks = columns / 256
        if format == .q4_K { return LlamaOrder.q4K(w, a, blocks: blocks, perPair: t < batch - batch % 4) }
        return batch >= 8 ? LlamaOrder.q6KSlab(w, a, blocks: blocks) : LlamaOrder.q6KVecDot(w, a, blocks: blocks)
    }

    /// Multiplies `batch` rows in slices of `slice` rows and checks every result.
    func check(_ format: WeightFormat, columns: Int, batch: Int, slice: Int) {
        let rows = 9
        var rng = Rng(state: UInt64(columns) &* 977 &+ UInt64(batch))
        let weights = KernelDecodedTileTests().weights(format, columns: columns, rows: rows, rng: &rng)
        let x = KernelBatchExactTests().input(columns: columns, count: batch, rng: &rng)
        weights.withUnsafeBytes { raw in
            x.withUnsafeBufferPointer { xb in
                let w = WeightMatrix(base: raw.baseAddress!, rows: rows, columns: columns, format: format)
                var first = 0
                while first < batch {
                    let n = min(slice, batch - first)
                    let act = ActivationBuffer(kind: .q8_K, columns: columns, capacity: n)
                    act.quantize(xb.baseAddress! + first * columns, rows: n, stride: columns)
                    var out = [Float](repeating: 0, count: rows * n)
                    out.withUnsafeMutableBufferPointer {
                        MatMul.multiply(w, input: xb.baseAddress! + first * columns, quantized: act, count: n, batch: batch, rows: 0..<rows,
                                        out: $0.baseAddress!, outStride: rows)
                    }
                    for t in 0..<n {
                        let a = LlamaOrder.Q8K(act, row: t)
                        for r in 0..<rows {
                            let want = expected(format, w.row(r), a, columns: columns, row: first + t, batch: batch)
                            let got = out[t * rows + r]
                            #expect(got.bitPattern == want.bitPattern, "\(format) batch \(batch) t\(first + t) r\(r): \(got) vs \(want)")
                        }
                    }
                    first += n
                }
            }
        }
    }

    @Test(arguments: [1, 3, 4, 7, 8, 25, 64])
    func q4_K(batch: Int) { check(.q4_K, columns: 1024, batch: batch, slice: batch) }

    @Test(arguments: [1, 3, 4, 7, 8, 25, 64])
    func q6_K(batch: Int) { check(.q6_K, columns: 2048, batch: batch, slice: batch) }

    @Test func slicedBatchFollowsTheWholeBatch() {
        check(.q4_K, columns: 1024, batch: 70, slice: 64)
        check(.q6_K, columns: 2048, batch: 70, slice: 64)
        check(.q6_K, columns: 2048, batch: 10, slice: 4)
    }

    /// Q8_K values are `iscale · x` rounded twice (to float, then to the nearest integer), as
    /// llama.cpp's build computes `nearest_int`; inputs are chosen where one rounding would differ.
    @Test func q8KRoundsTheProductTwice() {
        let maxValue: Float = 3
        let iscale: Float = -127 / maxValue
        var x = [Float](repeating: 0, count: 256)
        x[0] = maxValue
        var disagreeing = 0, i = 1, n = 0
        while i < 256 && n < 120 {
            var c = Float((Double(n) + 0.5) / Double(iscale)).nextDown.nextDown
            for _ in 0..<5 where i < 256 {
                let once = (Double(iscale) * Double(c)).rounded(.toNearestOrEven)
                let twice = Double((iscale * c).rounded(.toNearestOrEven))
                if once != twice { disagreeing += 1 }
                x[i] = c; i += 1
                c = c.nextUp
            }
            n += 1
        }
        #expect(disagreeing > 0, "the inputs must include products where the two roundings differ")
        let act = ActivationBuffer(kind: .q8_K, columns: 256, capacity: 1)
        x.withUnsafeBufferPointer { act.quantize($0.baseAddress!, rows: 1, stride: 256) }
        let a = LlamaOrder.Q8K(act, row: 0)
        for j in 0..<256 {
            #expect(a.q[j] == Int32(min(127, (iscale * x[j]).rounded(.toNearestOrEven))), "x[\(j)] = \(x[j])")
        }
        #expect(a.d[0] == 1 / iscale)
        #expect(a.sums16[0] == (0..<16).reduce(Int32(0)) { $0 + a.q[$1] })
    }
}
