import Testing
@testable import SwitchboardInference

/// The SIMD integer dot products against the scalar reference (dequantized weights · dequantized
/// activations), on random blocks.
@Suite struct KernelDotTests {
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func float() -> Float { Float(next() >> 40) / Float(1 << 24) * 2 - 1 }
    }

    /// Random blocks with sane fp16 scales.
    func randomRow(_ format: WeightFormat, columns: Int, rng: inout Rng) -> [UInt8] {
        var bytes = (0..<format.rowBytes(columns: columns)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for b in 0..<columns / format.blockSize {
            let base = b * format.blockBytes
            func put(_ offset: Int, _ v: Float) {
                let h = HalfFloat.half(from: v)
                bytes[base + offset] = UInt8(h & 0xFF); bytes[base + offset + 1] = UInt8(h >> 8)
            }
            switch format {
            case .q8_0, .q4_0, .q5_0: put(0, 0.01 + abs(rng.float()) * 0.05)
            case .q4_1: put(0, 0.01 + abs(rng.float()) * 0.05); put(2, rng.float() * 0.2)
            case .q4_K: put(0, 0.002 + abs(rng.float()) * 0.01); put(2, abs(rng.float()) * 0.01)
            case .q6_K: put(208, 0.001 + abs(rng.float()) * 0.004)
            case .f32, .f16, .bf16: break
            }
        }
        return bytes
    }

    func check(_ format: WeightFormat, columns: Int, rows: Int = 3, count: Int = 6) throws {
        var rng = Rng(state: UInt64(columns) &* 31 &+ UInt64(format.blockBytes))
        let weights = (0..<rows).flatMap { _ in randomRow(format, columns: columns, rng: &rng) }
        let input = (0..<count * columns).map { _ in rng.float() * 3 }
        let kind = try #require(format.activationKind)
        let act = ActivationBuffer(kind: kind, columns: columns, capacity: count)
        var out = [Float](repeating: 0, count: rows * count)
        weights.withUnsafeBytes { raw in
            input.withUnsafeBufferPointer { x in
                act.quantize(x.baseAddress!, rows: count, stride: columns)
                let w = WeightMatrix(base: raw.baseAddress!, rows: rows, columns: columns, format: format)
                out.withUnsafeMutableBufferPointer {
                    MatMul.multiply(w, input: x.baseAddress!, quantized: act, count: count, rows: 0..<rows, out: $0.baseAddress!, outStride: rows)
                }
                for r in 0..<rows {
                    var wf = [Float](repeating: 0, count: columns)
                    wf.withUnsafeMutableBufferPointer { w.dequantizeRow(r, into: $0.baseAddress!) }
                    for t in 0..<count {
                        let a = dequantizedActivations(act, row: t)
                        let exact = zip(wf, a).reduce(Float(0)) { $0 + $1.0 * $1.1 }
                        let unquantized = zip(wf, input[(t * columns)..<((t + 1) * columns)]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
                        let got = out[t * rows + r]
                        let scale = wf.reduce(Float(0)) { $0 + abs($1) } * 3
                        #expect(abs(got - exact) <= 1e-4 * scale + 1e-4, "\(format) r\(r) t\(t): \(got) vs \(exact)")
                        #expect(abs(got - unquantized) <= 0.02 * scale, "\(format) r\(r) t\(t): \(got) vs f32 \(unquantized)")
                    }
                }
            }
        }
    }

    /// Decodes an activation row back to floats (inverse of the even/odd group layout).
    func dequantizedActivations(_ act: ActivationBuffer, row t: Int) -> [Float] {
        let row = act.row(t)
        return (0..<act.columns).map { i in
            let q = row.planes[64 * (i / 64) + ActivationQuantizer.slot(i % 64)]
            return Float(q) * row.scales[i / act.kind.blockSize]
        }
    }

    @Test func q8_0() throws { try check(.q8_0, columns: 640) }
    @Test func q4_0() throws { try check(.q4_0, columns: 256) }
    @Test func q4_1() throws { try check(.q4_1, columns: 576, count: 11) }
    @Test func q5_0EightRowTilesAndTail() throws { try check(.q5_0, columns: 640, rows: 2, count: 13) }
    @Test func q5_0DecodeRowPairsAndOddTail() throws { try check(.q5_0, columns: 640, rows: 5, count: 1) }
    @Test func q8_0SingleRowsAndTail() throws { try check(.q8_0, columns: 128, rows: 5, count: 7) }
    @Test func q5_0() throws { try check(.q5_0, columns: 640) }
    @Test func q4_K() throws { try check(.q4_K, columns: 1024) }
    @Test func q6_K() throws { try check(.q6_K, columns: 2048) }

    @Test func q8KQuantizationMatchesReference() {
        let x: [Float] = (0..<256).map { Float($0 % 17) - 5.5 }
        let act = ActivationBuffer(kind: .q8_K, columns: 256, capacity: 1)
        x.withUnsafeBufferPointer { act.quantize($0.baseAddress!, rows: 1, stride: 256) }
        // Largest magnitude is +10.5, so d = -10.5/127 and q = -127 for it.
        #expect(act.scales[0] == 1 / (-127 / Float(10.5)))
        #expect(act.planes[ActivationQuantizer.slot(16)] == -127)
        let row = dequantizedActivations(act, row: 0)
        #expect(act.groupSums[0] == (0..<32).reduce(Int32(0)) { $0 + Int32(act.planes[ActivationQuantizer.slot($1)]) })
        for i in 0..<256 { #expect(abs(row[i] - x[i]) <= abs(act.scales[0]) / 2 + 1e-6) }
    }

    /// Every Q8_0 / Q8_K activation value against the scalar statement of llama.cpp's rounding
    /// (`Int16((x·id).rounded(.toNearestOrEven))`, products rounded first), including exact ties
    /// (x·id = k + 0.5) and a tie of ±amax (the first occurrence sets Q8_K's sign).
    @Test(arguments: [ActivationKind.q8_0, .q8_K])
    func quantizedValuesMatchTheScalarStatement(kind: ActivationKind) {
        var rng = Rng(state: 99)
        var x = (0..<512).map { _ in rng.float() * 4 }
        for i in stride(from: 0, to: 512, by: 32) { x[i + 5] = 127; x[i + 9] = 0.5; x[i + 11] = -2.5; x[i + 13] = -127 }
        let act = ActivationBuffer(kind: kind, columns: 512, capacity: 1)
        x.withUnsafeBufferPointer { act.quantize($0.baseAddress!, rows: 1, stride: 512) }
        let block = kind.blockSize
        for b in 0..<512 / block {
            let values = x[block * b..<block * (b + 1)]
            let amax = values.map(abs).max() ?? 0
            let signed = values.first { abs($0) == amax } ?? 0
            let id: Float = kind == .q8_0 ? (amax == 0 ? 0 : 127 / amax) : (signed == 0 ? 0 : -127 / signed)
            for j in 0..<block {
                let i = block * b + j
                let expected = min(127, Int16((x[i] * id).rounded(.toNearestOrEven)))
                #expect(act.planes[64 * (i / 64) + ActivationQuantizer.slot(i % 64)] == expected, "\(kind) value \(i)")
            }
        }
    }

    /// A NaN or infinite activation (a broken model file) must not trap in the quantizers.
    @Test(arguments: [ActivationKind.q8_0, .q8_K])
    func nonFiniteActivationsDoNotTrap(kind: ActivationKind) {
        var x = [Float](repeating: 1, count: 256)
        x[3] = .nan; x[100] = .infinity; x[200] = -.infinity
        let act = ActivationBuffer(kind: kind, columns: 256, capacity: 1)
        x.withUnsafeBufferPointer { act.quantize($0.baseAddress!, rows: 1, stride: 256) }
        #expect(act.columns == 256)
    }

    @Test func zeroActivationsQuantizeToZero() {
        let act = ActivationBuffer(kind: .q8_K, columns: 256, capacity: 1)
        let x = [Float](repeating: 0, count: 256)
        x.withUnsafeBufferPointer { act.quantize($0.baseAddress!, rows: 1, stride: 256) }
        #expect(act.scales[0] == 0)
        #expect((0..<8).allSatisfy { act.groupSums[$0] == 0 })
    }
}
