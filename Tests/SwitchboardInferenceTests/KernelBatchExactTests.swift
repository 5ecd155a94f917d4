import Testing
@testable import SwitchboardInference

/// For the 32-value formats a batched (prefill) multiply must give, for every activation row, exactly
/// the bits of a one-row (decode) multiply of that row alone, as llama.cpp's do (its K-quant paths
/// differ by batch size: `KernelLlamaOrderTests`); the model amplifies a last-bit difference into
/// visible logit changes.
@Suite struct KernelBatchExactTests {
    typealias Rng = KernelDotTests.Rng

    /// Inputs: random rows, with every fifth row constant (±127 after quantization) and every
    /// seventh row mixing huge and tiny magnitudes.
    func input(columns: Int, count: Int, rng: inout Rng) -> [Float] {
        var x = (0..<count * columns).map { _ in rng.float() * 3 }
        for t in 0..<count {
            for i in 0..<columns {
                if t % 5 == 4 { x[t * columns + i] = t % 2 == 0 ? 1.5 : -2 }
                if t % 7 == 6 { x[t * columns + i] = i % 3 == 0 ? 1e4 * rng.float() : 1e-3 * rng.float() }
            }
        }
        return x
    }

    func check(_ format: WeightFormat, columns: Int, decodeKernel: DecodeKernel = .registers) throws {
        let rows = 9
        let kind = try #require(format.activationKind)
        for count in [1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 25, 64] {
            var rng = Rng(state: UInt64(columns) &* 131 &+ UInt64(count))
            let weights = KernelDecodedTileTests().weights(format, columns: columns, rows: rows, rng: &rng)
            let x = input(columns: columns, count: count, rng: &rng)
            var batched = [Float](repeating: 0, count: rows * count), single = batched
            weights.withUnsafeBytes { raw in
                x.withUnsafeBufferPointer { xb in
                    let w = WeightMatrix(base: raw.baseAddress!, rows: rows, columns: columns, format: format)
                    let act = ActivationBuffer(kind: kind, columns: columns, capacity: count, decodeKernel: decodeKernel)
                    act.quantize(xb.baseAddress!, rows: count, stride: columns)
                    batched.withUnsafeMutableBufferPointer {
                        MatMul.multiply(w, input: xb.baseAddress!, quantized: act, count: count, rows: 0..<rows, out: $0.baseAddress!,
                                        outStride: rows)
                    }
                    let one = ActivationBuffer(kind: kind, columns: columns, capacity: 1)
                    for t in 0..<count {
                        let row = xb.baseAddress! + t * columns
                        one.quantize(row, rows: 1, stride: columns)
                        single.withUnsafeMutableBufferPointer {
                            MatMul.multiply(w, input: row, quantized: one, count: 1, rows: 0..<rows, out: $0.baseAddress! + t * rows, outStride: rows)
                        }
                    }
                }
            }
            for t in 0..<count {
                for r in 0..<rows {
                    let b = batched[t * rows + r], s = single[t * rows + r]
                    #expect(b.bitPattern == s.bitPattern, "\(format) \(decodeKernel) N=\(count) t\(t) r\(r): \(b) vs \(s)")
                }
            }
        }
    }

    @Test func q8_0() throws { try check(.q8_0, columns: 640) }
    @Test func q5_0() throws { try check(.q5_0, columns: 640) }
    @Test func q4_0() throws { try check(.q4_0, columns: 256) }
    @Test func q4_1() throws { try check(.q4_1, columns: 576) }
    /// The AVX2 decode kernel (`SmallBlockDot.ByteRow`, `vpmaddubsw`) on any machine, rows 2…15.
    @Test func q4_1Bytes() throws { try check(.q4_1, columns: 576, decodeKernel: .bytes) }
    /// The other formats' AVX2 route (four-row register kernel, `dotRowPair4`), which AVX-512 hosts
    /// take only for 2–3 rows.
    @Test(arguments: [(WeightFormat.q8_0, 640), (.q5_0, 640), (.q4_0, 256)])
    func registerKernelOnAVX2Hosts(format: WeightFormat, columns: Int) throws { try check(format, columns: columns, decodeKernel: .bytes) }
    /// Extreme blocks: all-15 weights against ±127 activations (the largest pair sums) and a
    /// minimum of −∞/NaN-free huge magnitude, through both kernels.
    @Test func q4_1BytesExtremes() throws {
        let columns = 64, rows = 3, count = 6
        var weights = [UInt8]()
        for r in 0..<rows {
            for _ in 0..<columns / 32 {
                let d = HalfFloat.half(from: r == 2 ? 60_000 : 0.5), m = HalfFloat.half(from: r == 1 ? -1e4 : 0.25)
                weights += [UInt8(d & 0xFF), UInt8(d >> 8), UInt8(m & 0xFF), UInt8(m >> 8)] + [UInt8](repeating: r == 0 ? 0xFF : 0xF0, count: 16)
            }
        }
        var x = [Float](repeating: 0, count: columns * count)
        for t in 0..<count { for i in 0..<columns { x[t * columns + i] = t % 2 == 0 ? 3 : (i % 2 == 0 ? -3 : 3) } }
        var outputs = [[Float]]()
        for kernel in [DecodeKernel.registers, .bytes] {
            var out = [Float](repeating: 0, count: rows * count)
            weights.withUnsafeBytes { raw in
                x.withUnsafeBufferPointer { xb in
                    let w = WeightMatrix(base: raw.baseAddress!, rows: rows, columns: columns, format: .q4_1)
                    let act = ActivationBuffer(kind: .q8_0, columns: columns, capacity: count, decodeKernel: kernel)
                    act.quantize(xb.baseAddress!, rows: count, stride: columns)
                    out.withUnsafeMutableBufferPointer {
                        MatMul.multiply(w, input: xb.baseAddress!, quantized: act, count: count, rows: 0..<rows, out: $0.baseAddress!,
                                        outStride: rows)
                    }
                }
            }
            outputs.append(out)
        }
        #expect(outputs[0].map(\.bitPattern) == outputs[1].map(\.bitPattern))
        // Row 0, activation row 0: 64 values 15·0.5 + 0.25 against 127·(3/127).
        #expect(abs(outputs[1][0] - 64 * 7.75 * 3) < 1)
    }
}
