import Testing
@testable import SwitchboardInference

/// Hand-built blocks with known values, decoded by the scalar reference.
@Suite struct QuantDequantizeTests {
    func decode(_ format: WeightFormat, _ bytes: [UInt8], count: Int) -> [Float] {
        var out = [Float](repeating: .nan, count: count)
        bytes.withUnsafeBytes { raw in
            out.withUnsafeMutableBufferPointer { Dequantize.row(format, raw.baseAddress!, count: count, into: $0.baseAddress!) }
        }
        return out
    }

    func half(_ v: Float) -> [UInt8] { let h = HalfFloat.half(from: v); return [UInt8(h & 0xFF), UInt8(h >> 8)] }

    @Test func floatFormats() {
        let f32 = decode(.f32, [0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0], count: 2)
        #expect(f32 == [1, -2])
        #expect(decode(.f16, [0x00, 0x3C, 0x00, 0xC4, 0x01, 0x00], count: 3) == [1, -4, Float(bitPattern: 0x3380_0000)])
        #expect(decode(.bf16, [0x80, 0x3F, 0x40, 0xC0], count: 2) == [1, -3])
        #expect(HalfFloat.bfloat(from: 1.00390625) == 0x3F80)  // ties to even
    }

    @Test func q8_0() {
        let qs: [UInt8] = (0..<32).map { (i: Int) -> UInt8 in UInt8(bitPattern: Int8(i - 16)) }
        let expected: [Float] = (0..<32).map { (i: Int) -> Float in Float(i - 16) * 0.5 }
        #expect(decode(.q8_0, half(0.5) + qs, count: 32) == expected)
    }

    @Test func q4_0() {
        let qs: [UInt8] = (0..<16).map { (i: Int) -> UInt8 in UInt8(i) | UInt8(15 - i) << 4 }
        let low: [Float] = (0..<16).map { (i: Int) -> Float in Float(i - 8) * 2 }
        let high: [Float] = (0..<16).map { (i: Int) -> Float in Float(7 - i) * 2 }
        let expected = low + high
        #expect(decode(.q4_0, half(2) + qs, count: 32) == expected)
    }

    @Test func q5_0() {
        // High bits set for elements 0, 17 and 31.
        let h: UInt32 = 1 | 1 << 17 | 1 << 31
        let hb = [UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF), UInt8(h >> 24)]
        let qs: [UInt8] = (0..<16).map { (i: Int) -> UInt8 in UInt8(i) | 3 << 4 }
        let low: [Float] = (0..<16).map { (i: Int) -> Float in Float(i - 16) }
        var expected = low + [Float](repeating: 3 - 16, count: 16)
        expected[0] += 16; expected[17] += 16; expected[31] += 16
        #expect(decode(.q5_0, half(1) + hb + qs, count: 32) == expected)
    }

    @Test func q4_K() {
        // scale j = j + 1, min j = 2j; sc4..7/m4..7 need the split 6-bit encoding.
        var scales = [UInt8](repeating: 0, count: 12)
        for j in 0..<4 { scales[j] = UInt8(j + 1); scales[j + 4] = UInt8(2 * j) }
        for j in 4..<8 {
            let sc = j + 1, m = 2 * j + 40   // m ≥ 32 exercises the high bits
            scales[j + 4] = UInt8(sc & 0xF) | UInt8(m & 0xF) << 4
            scales[j - 4] |= UInt8(sc >> 4) << 6
            scales[j] |= UInt8(m >> 4) << 6
        }
        let qs: [UInt8] = (0..<128).map { (i: Int) -> UInt8 in UInt8(i % 16) | UInt8((i / 3) % 16) << 4 }
        let out = decode(.q4_K, half(0.25) + half(0.5) + scales + qs, count: 256)
        for e in 0..<256 {
            let sub = e / 32, j = sub
            let sc = Float(j + 1), m = Float(j < 4 ? 2 * j : 2 * j + 40)
            let byte = qs[32 * (e / 64) + e % 32]
            let nib = e % 64 < 32 ? byte & 0xF : byte >> 4
            #expect(out[e] == 0.25 * sc * Float(nib) - 0.5 * m, "element \(e)")
        }
    }

    @Test func q6_K() {
        let ql: [UInt8] = (0..<128).map { (i: Int) -> UInt8 in UInt8((i * 7) % 256) }
        let qh: [UInt8] = (0..<64).map { (i: Int) -> UInt8 in UInt8((i * 13 + 5) % 256) }
        let sc: [UInt8] = (0..<16).map { (i: Int) -> UInt8 in UInt8(bitPattern: Int8(i - 8)) }
        let out = decode(.q6_K, ql + qh + sc + half(0.125), count: 256)
        for e in 0..<256 {
            let n = e / 128, r = e % 128, l = r % 32, k = r / 32
            let low = k < 2 ? ql[64 * n + 32 * k + l] & 0xF : ql[64 * n + 32 * (k - 2) + l] >> 4
            let high = (qh[32 * n + l] >> (2 * k)) & 3
            let q = Int(low | high << 4) - 32
            #expect(out[e] == 0.125 * Float(e / 16 - 8) * Float(q), "element \(e)")
        }
    }
}
