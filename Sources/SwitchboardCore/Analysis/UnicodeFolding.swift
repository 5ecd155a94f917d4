/// What normalization does with one non-ASCII scalar (see `NormalizedText`).
enum UnicodeFolding {
    enum Action: Equatable {
        case drop, space, newline, keep, unreadable, compatibility
        case ascii(UInt8)
        case asciiPair(UInt8, UInt8)
        case scalar(UInt32)
    }

    static func classify(_ v: UInt32) -> Action {
        switch v {
        case 0x80...0x84, 0x86...0x9F: return .drop  // C1 controls
        case 0x85, 0x2028, 0x2029: return .newline
        case 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000, 0x2800: return .space  // 0x2800: braille blank
        case 0xAD, 0x34F, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x200B...0x200F,
             0x202A...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0x1BCA0...0x1BCA3,
             0xE0000...0xE0FFF:
            return .drop  // format characters: invisible, so they must not split what the reader sees as one
        case 0x300...0x36F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F:
            return .drop  // combining marks: accents are dropped, so "é" and "e\u{301}" read alike
        case 0x2010...0x2015, 0x2043, 0x2212, 0x2E3A, 0x2E3B, 0xFE58, 0xFE63: return .ascii(0x2D)
        case 0x2018...0x201B, 0x2032, 0x2035: return .ascii(0x27)
        case 0x201C...0x201F, 0x2033, 0x2036, 0xAB, 0xBB: return .ascii(0x22)
        case 0x2024: return .ascii(0x2E)
        case 0x2044, 0x2215: return .ascii(0x2F)
        case 0xFF01...0xFF5E: return .ascii(UInt8(truncatingIfNeeded: v - 0xFEE0))
        case 0xC0...0xFF: return latin1(v)
        case 0x100...0x17F: return latinExtended(v)
        case 0x391...0x3A9 where v != 0x3A2: return .scalar(v + 0x20)  // Greek capitals
        case 0x401: return .scalar(0x435)  // Ё reads as е
        case 0x451: return .scalar(0x435)
        case 0x400...0x40F: return .scalar(v + 0x50)  // Cyrillic capitals
        case 0x410...0x42F: return .scalar(v + 0x20)
        case 0xFFFD, 0xFFFE, 0xFFFF: return .unreadable
        case 0xA8...0xBF, 0x1C4...0x1CC, 0x2070...0x209F, 0x2100...0x218F, 0x2460...0x24FF, 0x2F00...0x2FDF,
             0x3200...0x33FF, 0xF900...0xFAFF, 0xFB00...0xFB4F, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF61...0xFFEF,
             0x1D400...0x1D7FF, 0x1F100...0x1F1E5:
            return .compatibility
        case 0x250...0x2AF, 0x1D00...0x1D2B, 0xA730...0xA7FF: return latinLookAlike(v)
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF: return .keep  // kana, Han, Hangul: no digits
        default: return decimalDigit(v) ?? .keep
        }
    }

    /// Every decimal digit of every script (General Category Nd: Arabic-Indic, Persian, Devanagari,
    /// Bengali, Thai, Myanmar, …) reads as its ASCII digit, so numbers cannot hide in another script.
    private static func decimalDigit(_ v: UInt32) -> Action? {
        guard v >= 0x660, let scalar = Unicode.Scalar(v), scalar.properties.numericType == .decimal,
              let value = scalar.properties.numericValue, value >= 0, value <= 9 else { return nil }
        return .ascii(0x30 + UInt8(value))
    }

    /// IPA and small-capital letters that read as Latin ones (TR39 confusables with Latin targets).
    private static let latinLookAlikes: [UInt32: UInt8] = [
        0x251: 0x61, 0x261: 0x67, 0x269: 0x69, 0x26A: 0x69, 0x29F: 0x6C, 0x1D05: 0x64, 0x1D07: 0x65, 0x1D0B: 0x6B, 0x1D0D: 0x6D,
        0x274: 0x6E, 0x1D0F: 0x6F, 0x1D18: 0x70, 0x280: 0x72, 0xA731: 0x73, 0x1D1B: 0x74, 0x1D1C: 0x75, 0x1D20: 0x76,
        0x1D21: 0x77, 0x1D22: 0x7A, 0x299: 0x62, 0x1D04: 0x63, 0x262: 0x67, 0x29C: 0x68, 0x1D0A: 0x6A, 0x1D00: 0x61, 0x28F: 0x79,
    ]

    private static func latinLookAlike(_ v: UInt32) -> Action { latinLookAlikes[v].map { .ascii($0) } ?? .keep }

    /// À–ÿ: the base letter, ASCII case kept; ×, ÷, Þ, þ stay.
    private static let latin1Bases = Array("AAAAAA_CEEEEIIIIDNOOOOO_OUUUUY_saaaaaa_ceeeeiiiidnooooo_ouuuuy_y".utf8)

    private static func latin1(_ v: UInt32) -> Action {
        switch v {
        case 0xC6: return .asciiPair(0x41, 0x45)  // Æ
        case 0xE6: return .asciiPair(0x61, 0x65)
        case 0xDF: return .asciiPair(0x73, 0x73)  // ß
        default:
            let base = latin1Bases[Int(v - 0xC0)]
            return base == 0x5F ? .keep : .ascii(base)
        }
    }

    /// Ā–ſ (Latin Extended-A), in code point order.
    private static let extendedBases = Array(
        "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiIiJjKkkLlLlLlLlLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs".utf8)

    private static func latinExtended(_ v: UInt32) -> Action {
        switch v {
        case 0x152: return .asciiPair(0x4F, 0x45)  // Œ
        case 0x153: return .asciiPair(0x6F, 0x65)
        default: return .ascii(extendedBases[Int(v - 0x100)])
        }
    }
}
