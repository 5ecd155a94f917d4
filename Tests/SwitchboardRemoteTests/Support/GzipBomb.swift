import Foundation

/// A gzip body that inflates to `1 + 2064 × periods` bytes of `a` (no line break: one endless SSE
/// line), built by hand with fixed-Huffman deflate: one literal, then back-references of length 258
/// at distance 1. Each reference is 13 bits, so eight of them are exactly 13 bytes and the middle of
/// the stream repeats byte for byte; the body is spliced from one short encoded stream. Inflating it
/// fully would fail the trailer's check (its CRC is left zero): a client must stop long before.
enum GzipBomb {
    static func make(periods: Int) -> Data {
        var bits = BitWriter()
        bits.write(0b1, count: 1)           // BFINAL
        bits.write(0b01, count: 2)          // BTYPE: fixed Huffman (LSB first)
        bits.writeCode(0x30 + 0x61, count: 8)  // literal "a"
        for _ in 0..<16 {                   // two periods of eight references
            bits.writeCode(0xC0 + 5, count: 8)  // length code 285: 258 bytes
            bits.writeCode(0, count: 5)         // distance code 0: distance 1
        }
        bits.writeCode(0, count: 7)         // end of block
        let encoded = bits.bytes
        // Bits from 11 on repeat every 104 bits (13 bytes); bytes 2..<15 are one period.
        let period = encoded[2..<15]
        var deflate = Data(encoded[0..<2])
        deflate.reserveCapacity(encoded.count + 13 * max(periods - 2, 0))
        for _ in 0..<max(periods - 2, 0) { deflate.append(contentsOf: period) }
        deflate.append(contentsOf: encoded[2...])
        let header: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF]
        return Data(header) + deflate + Data(count: 8)  // CRC32 and ISIZE left zero
    }

    /// Decoded size of `make(periods:)`.
    static func inflatedSize(periods: Int) -> Int { 1 + 2064 * max(periods, 2) }

    private struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 0  // bits used in the last byte

        /// Data fields: least significant bit first.
        mutating func write(_ value: UInt32, count: Int) {
            for i in 0..<count { push((value >> UInt32(i)) & 1 == 1) }
        }

        /// Huffman codes: most significant bit first.
        mutating func writeCode(_ code: UInt32, count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { push((code >> UInt32(i)) & 1 == 1) }
        }

        private mutating func push(_ bit: Bool) {
            if used == 0 { bytes.append(0) }
            if bit { bytes[bytes.count - 1] |= UInt8(1 << used) }
            used = (used + 1) % 8
        }
    }
}
