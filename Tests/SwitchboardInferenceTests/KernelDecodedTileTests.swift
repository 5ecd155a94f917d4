import Testing
@testable import SwitchboardInference

/// The prefill tiles that run on decoded weight rows (`vpmaddwd`) must give results bit-identical
/// to the tiles that unpack each block in place — the engine reproduces llama.cpp's dot products
/// exactly, so "close" is not enough. Random rows plus rows at the formats' extreme magnitudes.
/// (K-quant tiles are checked against llama.cpp's order directly: `KernelLlamaOrderTests`.)
@Suite struct KernelDecodedTileTests {
    typealias Rng = KernelDotTests.Rng

    /// Random weight rows, then (K-quants) one row of maximal |q · scale|.
    func weights(_ format: WeightFormat, columns: Int, rows: Int, rng: inout Rng) -> [UInt8] {
        var bytes = (0..<rows).flatMap { _ in KernelDotTests().randomRow(format, columns: columns, rng: &rng) }
        let rowBytes = format.rowBytes(columns: columns)
        for b in 0..<columns / format.blockSize {
            let base = (rows - 1) * rowBytes + b * format.blockBytes
            switch format {
            case .q4_K: for i in 4..<144 { bytes[base + i] = 0xFF }          // scales/mins 63, nibbles 15
            case .q6_K: for i in 0..<192 { bytes[base + i] = 0 }             // q − 32 = −32
                        for i in 192..<208 { bytes[base + i] = 0x80 }        // scales −128
            case .q8_0: for i in 2..<34 { bytes[base + i] = 0x80 }           // −128
            default: break
            }
        }
        return bytes
    }

    /// Activations: random rows, then rows of one repeated value (quantized to ±127 everywhere).
    func activations(_ kind: ActivationKind, columns: Int, count: Int, rng: inout Rng) -> ActivationBuffer {
        let act = ActivationBuffer(kind: kind, columns: columns, capacity: count)
        var input = (0..<count * columns).map { _ in rng.float() * 3 }
        for i in (count - 2) * columns..<(count - 1) * columns { input[i] = 1.5 }
        for i in (count - 1) * columns..<count * columns { input[i] = -2 }
        input.withUnsafeBufferPointer { act.quantize($0.baseAddress!, rows: count, stride: columns) }
        return act
    }

    /// Decoded row pairs (`SmallBlockDot.DecodedRowPair`, prefill) against the in-place reference
    /// tile, 4 activation rows at a time and one at a time, and the decode row pair
    /// (`dotRowPair`) against the one-row reference; an odd last row is paired with itself.
    func small<C: SmallBlockCodec>(_ codec: C.Type, _ format: WeightFormat, columns: Int) {
        var rng = Rng(state: 7 &+ UInt64(columns))
        let rows = 3, count = 16, blocks = columns / 32
        let w = weights(format, columns: columns, rows: rows, rng: &rng)
        let act = activations(.q8_0, columns: columns, count: count, rng: &rng)
        let pairBytes = SmallBlockDot.DecodedRowPair.bytes(blocks: blocks)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: pairBytes + SmallBlockDot.TileTables.bytes(blocks: blocks, count: count,
            minimum: false), alignment: 64)
        defer { scratch.deallocate() }
        let pair = SmallBlockDot.DecodedRowPair(scratch, blocks: blocks)
        let tables = SmallBlockDot.TileTables(scratch + pairBytes, act, blocks: blocks, count: count, minimum: false)
        w.withUnsafeBytes { raw in
            func row(_ r: Int) -> UnsafeRawPointer { raw.baseAddress! + r * format.rowBytes(columns: columns) }
            for (r0, r1) in [(0, 1), (2, 2)] {
                pair.decode(codec, row(r0), row(r1), shifts: act.pairedRow(0).shifts)
                for t in stride(from: 0, to: count, by: 8) {
                    let (low, high) = (pair.dot4(act, first: t, tables: tables, minimum: false), pair.dot4(act, first: t + 4, tables: tables,
                        minimum: false))
                    let fast = (SIMD8(lowHalf: low.0, highHalf: high.0), SIMD8(lowHalf: low.1, highHalf: high.1))
                    let reference0 = SmallBlockDot.dot8(codec, row(r0), act, first: t, blocks: blocks)
                    let reference1 = SmallBlockDot.dot8(codec, row(r1), act, first: t, blocks: blocks)
                    for i in 0..<8 {
                        let expected0 = i < 4 ? reference0.0[i] : reference0.1[i - 4], expected1 = i < 4 ? reference1.0[i] : reference1.1[i - 4]
                        #expect(fast.0[i].bitPattern == expected0.bitPattern, "\(format) r\(r0) t\(t + i)")
                        #expect(fast.1[i].bitPattern == expected1.bitPattern, "\(format) r\(r1) t\(t + i)")
                        let one = pair.dot(act.pairedRow(t + i), minimum: false)
                        #expect(one.0.bitPattern == expected0.bitPattern && one.1.bitPattern == expected1.bitPattern,
                                "\(format) r\(r0),\(r1) t\(t + i) one row")
                        // The decode kernel (weights unpacked in place) against the one-row reference.
                        let decode = SmallBlockDot.dotRowPair(codec, row(r0), row(r1), act.pairedRow(t + i), blocks: blocks)
                        let single0 = SmallBlockDot.dot(codec, row(r0), act.row(t + i), blocks: blocks)
                        let single1 = SmallBlockDot.dot(codec, row(r1), act.row(t + i), blocks: blocks)
                        #expect(decode.0.bitPattern == single0.bitPattern && decode.1.bitPattern == single1.bitPattern,
                                "\(format) r\(r0),\(r1) t\(t + i) decode")
                        #expect(single0.bitPattern == expected0.bitPattern, "\(format) r\(r0) t\(t + i) references agree")
                    }
                }
            }
        }
    }

    @Test func q5_0() { small(Q5_0Codec.self, .q5_0, columns: 640) }
    @Test func q4_0() { small(Q4_0Codec.self, .q4_0, columns: 256) }
    @Test func q8_0() { small(Q8_0Codec.self, .q8_0, columns: 640) }
}
