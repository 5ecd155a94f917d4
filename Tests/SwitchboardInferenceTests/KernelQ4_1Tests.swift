import Testing
@testable import SwitchboardInference

/// Q4_1 weights with Q8_1 activations, against a scalar statement of llama.cpp's x86
/// `vec_dot_q4_1_q8_1` (8 lanes of 4 consecutive products, a fused multiply-add of d_w·d_a per block
/// and lane, `hsum_float_8`, plus the block-by-block fused Σ m_w·s_a) and of `quantize_row_q8_1`
/// (Q8_0's rounding, s = fp16(d·Σq) with the unrounded d). llama.cpp has no batched Q4_1 kernel on
/// x86, so every batch size must give these bits.
@Suite struct KernelQ4_1Tests {
    typealias Rng = KernelDotTests.Rng

    /// The activation row as llama.cpp's Q8_1 block values: q, d (fp16-rounded), s.
    struct Q8_1 {
        var q: [Int32], d: [Float], s: [Float]
        init(_ x: ArraySlice<Float>) {
            let values = Array(x)
            q = []; d = []; s = []
            for b in 0..<values.count / 32 {
                let block = values[(32 * b)..<(32 * b + 32)]
                let amax = block.map(abs).max() ?? 0
                let scale = amax / 127, inverse: Float = amax != 0 ? 127 / amax : 0
                let qs = block.map { Int32(($0 * inverse).rounded(.toNearestOrEven)) }
                q += qs
                d.append(Float(Float16(scale)))
                s.append(Float(Float16(scale * Float(qs.reduce(0, +)))))
            }
        }
    }

    static func expected(_ w: UnsafeRawPointer, _ a: Q8_1, blocks: Int) -> Float {
        var lanes = [Float](repeating: 0, count: 8)
        var minimums: Float = 0
        for b in 0..<blocks {
            let block = w + 20 * b
            let d = HalfFloat.load(block, 0), m = HalfFloat.load(block, 2)
            let q = (0..<32).map { j -> Int32 in
                let byte = block.load(fromByteOffset: 4 + j % 16, as: UInt8.self)
                return Int32(j < 16 ? byte & 0x0F : byte >> 4)
            }
            minimums.addProduct(m, a.s[b])
            for i in 0..<8 {
                let sum = (4 * i..<4 * i + 4).reduce(Int32(0)) { $0 + q[$1] * a.q[32 * b + $1] }
                lanes[i].addProduct(Float(sum), d * a.d[b])
            }
        }
        let h = (0..<4).map { lanes[$0] + lanes[$0 + 4] }
        return (h[0] + h[2]) + (h[1] + h[3]) + minimums
    }

    @Test(arguments: [1, 2, 3, 8, 9, 25])
    func matchesLlamaOrder(batch: Int) {
        let columns = 576, rows = 7, blocks = columns / 32
        var rng = Rng(state: 41 &+ UInt64(batch))
        var weights = (0..<rows).flatMap { _ in KernelDotTests().randomRow(.q4_1, columns: columns, rng: &rng) }
        // The last row at the format's extremes: every nibble 15, a large negative minimum.
        for b in 0..<blocks {
            let base = (rows - 1) * 20 * blocks + 20 * b
            for i in 4..<20 { weights[base + i] = 0xFF }
            let m = HalfFloat.half(from: -3.5)
            weights[base + 2] = UInt8(m & 0xFF); weights[base + 3] = UInt8(m >> 8)
        }
        let x = KernelBatchExactTests().input(columns: columns, count: batch, rng: &rng)
        var out = [Float](repeating: 0, count: rows * batch)
        weights.withUnsafeBytes { raw in
            x.withUnsafeBufferPointer { xb in
                let w = WeightMatrix(base: raw.baseAddress!, rows: rows, columns: columns, format: .q4_1)
                let act = ActivationBuffer(kind: .q8_0, columns: columns, capacity: batch)
                act.quantize(xb.baseAddress!, rows: batch, stride: columns)
                out.withUnsafeMutableBufferPointer {
                    MatMul.multiply(w, input: xb.baseAddress!, quantized: act, count: batch, rows: 0..<rows, out: $0.baseAddress!, outStride: rows)
                }
                for t in 0..<batch {
                    let a = Q8_1(x[(t * columns)..<((t + 1) * columns)])
                    for b in 0..<blocks { #expect(act.row(t).blockSums[b] == a.s[b], "s of t\(t) block \(b)") }
                    for r in 0..<rows {
                        let want = Self.expected(w.row(r), a, blocks: blocks)
                        let got = out[t * rows + r]
                        #expect(got.bitPattern == want.bitPattern, "batch \(batch) t\(t) r\(r): \(got) vs \(want)")
                    }
                }
            }
        }
    }

    @Test func dequantizesAsQTimesDPlusM() {
        var block: [UInt8] = []
        for v: Float in [0.5, -1] { let h = HalfFloat.half(from: v); block += [UInt8(h & 0xFF), UInt8(h >> 8)] }
        block += (0..<16).map { UInt8($0) | UInt8(15 - $0) << 4 }
        var out = [Float](repeating: 0, count: 32)
        block.withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { Dequantize.row(.q4_1, raw.baseAddress!, count: 32,
                                                                                           into: $0.baseAddress!) } }
        let low: [Float] = (0..<16).map { Float($0) * 0.5 - 1 }
        let high: [Float] = (0..<16).map { Float(15 - $0) * 0.5 - 1 }
        #expect(out == low + high)
    }
}
