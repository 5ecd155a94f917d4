/// GPT-2's byte-to-unicode table: byte-level BPE vocabularies spell every byte as one printable
/// character, so pieces are valid text. Printable Latin-1 bytes stand for themselves; the other 68
/// bytes (controls, space, DEL, NBSP, soft hyphen, …) take U+0100 upward in byte order, which makes
/// space `Ġ` (U+0120) and newline `Ċ` (U+010A).
enum ByteLevelAlphabet {
    /// The character standing for each byte.
    static let scalarOfByte: [UInt32] = {
        var scalars = [UInt32](repeating: 0, count: 256)
        var next: UInt32 = 256
        for byte in 0..<256 {
            if standsForItself(byte) {
                scalars[byte] = UInt32(byte)
            } else {
                scalars[byte] = next
                next += 1
            }
        }
        return scalars
    }()

    /// The byte each alphabet character stands for, indexed by scalar value; -1 outside the alphabet.
    static let byteOfScalar: [Int16] = {
        var bytes = [Int16](repeating: -1, count: 256 + 68)
        for (byte, scalar) in scalarOfByte.enumerated() { bytes[Int(scalar)] = Int16(byte) }
        return bytes
    }()

    private static func standsForItself(_ byte: Int) -> Bool {
        (0x21...0x7E).contains(byte) || (0xA1...0xAC).contains(byte) || (0xAE...0xFF).contains(byte)
    }

    /// The UTF-8 spelling of the character standing for each byte (one or two bytes).
    static let utf8OfByte: [[UInt8]] = scalarOfByte.map { scalar in
        scalar < 0x80 ? [UInt8(scalar)] : [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)]
    }

    /// Appends the bytes a byte-level piece stands for. Characters outside the alphabet (only in
    /// hand-edited vocabularies) are passed through as their own UTF-8.
    static func appendDecoded(_ piece: ArraySlice<UInt8>, to output: inout [UInt8]) {
        var i = piece.startIndex
        while i < piece.endIndex {
            let lead = piece[i]
            if lead < 0x80 {
                output.append(lead)  // printable ASCII stands for itself
                i += 1
                continue
            }
            // Alphabet characters are at most U+0143: two UTF-8 bytes.
            if lead & 0xE0 == 0xC0, i + 1 < piece.endIndex, piece[i + 1] & 0xC0 == 0x80 {
                let scalar = Int(lead & 0x1F) << 6 | Int(piece[i + 1] & 0x3F)
                if scalar < byteOfScalar.count, byteOfScalar[scalar] >= 0 {
                    output.append(UInt8(byteOfScalar[scalar]))
                    i += 2
                    continue
                }
            }
            var end = i + 1
            while end < piece.endIndex, piece[end] & 0xC0 == 0x80 { end += 1 }
            output += piece[i..<end]
            i = end
        }
    }
}
