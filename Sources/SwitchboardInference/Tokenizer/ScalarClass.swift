/// The character classes the pre-tokenizers test, as bits: llama.cpp's unicode flags reduced to what
/// its splitters read (`\p{L}`, `\p{N}`, `\s`). `present` marks a real character, so a position past
/// the end of a span (class 0) matches nothing, exactly as llama.cpp's out-of-range flags.
enum ScalarClass {
    static let letter: UInt8 = 1
    static let number: UInt8 = 2
    static let whitespace: UInt8 = 4
    static let present: UInt8 = 8
    /// Neither whitespace, letter nor number: what `[^\s\p{L}\p{N}]` matches.
    static func isOther(_ c: UInt8) -> Bool { c & (letter | number | whitespace) == 0 && c != 0 }

    private static let ascii: [UInt8] = (0..<128).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): present | letter
        case UInt8(ascii: "0")...UInt8(ascii: "9"): present | number
        case 0x09...0x0D, 0x20: present | whitespace
        default: present
        }
    }

    /// Letters and numbers by general category; whitespace by the Unicode White_Space property, which
    /// is exactly the set Python's `\s` gives llama.cpp's tables (U+0085, U+00A0, U+3000, …).
    @inline(__always) static func of(_ value: UInt32) -> UInt8 {
        value < 128 ? ascii[Int(value)] : ofNonASCII(value)
    }

    private static func ofNonASCII(_ value: UInt32) -> UInt8 {
        guard let scalar = Unicode.Scalar(value) else { return present }
        let properties = scalar.properties
        var result = present
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            result |= letter
        case .decimalNumber, .letterNumber, .otherNumber:
            result |= number
        default:
            break
        }
        if properties.isWhitespace { result |= whitespace }
        return result
    }
}
