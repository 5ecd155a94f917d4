/// Standard and URL-safe base64, padded or not; nil for anything that is not well-formed base64.
enum Base64Decoding {
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// Letters, digits, `+ / - _` and the padding `=` (compared, not looked up: a table in a static is
    /// a `swift_once` check per byte in the analyzer's scans).
    @inline(__always)
    static func isAlphabet(_ byte: UInt8) -> Bool {
        ByteClass.isASCIIAlphanumeric(byte) || byte == 0x2B || byte == 0x2F || byte == 0x2D || byte == 0x5F || byte == 0x3D
    }

    static func decode(_ encoded: ArraySlice<UInt8>) -> [UInt8]? {
        var body = encoded
        var padding = 0
        while body.last == 0x3D, padding < 2 { body = body.dropLast(); padding += 1 }
        guard !body.isEmpty, body.count % 4 != 1, padding == 0 || (body.count + padding) % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(body.count * 3 / 4)
        var accumulator: UInt32 = 0, bits = 0
        for byte in body {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return output
    }
}
