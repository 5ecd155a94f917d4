/// Unicode TR39-style skeletons for Latin look-alikes in Cyrillic, Greek and Armenian, applied per word
/// after the scalar folding of `NormalizedTextBuilder` (which has already lowered capitals, folded
/// full-width and mathematical letters through NFKC, and mapped small capitals). A word is folded to
/// its Latin skeleton when it mixes scripts ("pаsswоrd" with a Cyrillic а and о) or when every letter in it
/// is a look-alike and one of them is not used by the language itself (ѕ, ԁ, ԝ, і, ј: a disguise, not
/// Russian). Ordinary Cyrillic and Greek words are left alone, so their lexicons still match.
enum ConfusableSkeleton {
    /// Lowercase scalar → ASCII letter (from Unicode's confusables.txt, restricted to Latin targets).
    static let table: [UInt32: UInt8] = {
        var t: [UInt32: UInt8] = [:]
        let pairs: [(UInt32, Character)] = [
            // Cyrillic (capitals are lowered before this pass, so the capitals' look-alikes come in too).
            (0x430, "a"), (0x432, "b"), (0x435, "e"), (0x43A, "k"), (0x43C, "m"), (0x43D, "h"), (0x43E, "o"), (0x440, "p"),
            (0x441, "c"), (0x442, "t"), (0x443, "y"), (0x445, "x"), (0x455, "s"), (0x456, "i"), (0x457, "i"), (0x458, "j"),
            (0x4BB, "h"), (0x4CF, "l"), (0x501, "d"), (0x51B, "q"), (0x51D, "w"), (0x461, "w"), (0x48F, "p"), (0x4AF, "y"),
            (0x4E9, "o"), (0x4D5, "e"), (0x491, "r"),
            // Greek.
            (0x3B1, "a"), (0x3B2, "b"), (0x3B3, "y"), (0x3B5, "e"), (0x3B9, "i"), (0x3BA, "k"), (0x3BD, "v"), (0x3BF, "o"),
            (0x3C1, "p"), (0x3C3, "s"), (0x3C2, "s"), (0x3C4, "t"), (0x3C5, "u"), (0x3C7, "x"), (0x3C9, "w"), (0x3B7, "n"), (0x3B6, "z"),
            (0x3AC, "a"), (0x3AD, "e"), (0x3AF, "i"), (0x3CC, "o"), (0x3CD, "u"), (0x3F2, "c"), (0x3F3, "j"),
            // Armenian.
            (0x585, "o"), (0x57D, "u"), (0x578, "n"), (0x570, "h"), (0x566, "q"), (0x581, "g"), (0x561, "w"),
        ]
        for (scalar, letter) in pairs { t[scalar] = letter.asciiValue }
        return t
    }()

    /// Look-alikes no Russian, Ukrainian-Cyrillic-as-written-by-Russians or Greek word needs: their
    /// presence marks a disguise even in a word with no Latin letter.
    static let foreign: Set<UInt32> = [0x455, 0x456, 0x457, 0x458, 0x4BB, 0x4CF, 0x501, 0x51B, 0x51D, 0x461, 0x48F, 0x3F2, 0x3F3,
                                       0x585, 0x57D, 0x578, 0x570]

    /// `table` and `foreign` flattened over U+0370–U+058F: the ASCII letter, with bit 7 set for a
    /// foreign look-alike; 0 for none (one load per scalar instead of a hashed lookup).
    private static let flat: [UInt8] = {
        var flat = [UInt8](repeating: 0, count: 0x590 - 0x370)
        for (scalar, ascii) in table where scalar >= 0x370 && scalar < 0x590 {
            flat[Int(scalar - 0x370)] = ascii | (foreign.contains(scalar) ? 0x80 : 0)
        }
        return flat
    }()

    @inline(__always) private static func lookAlike(_ v: UInt32, in flat: [UInt8]) -> UInt8 {
        v >= 0x370 && v < 0x590 ? flat[Int(v - 0x370)] : 0
    }

    /// Whether the normalized bytes hold any scalar from the scripts this pass reads (lead bytes of
    /// U+0370–U+058F).
    static func mayApply(_ bytes: [UInt8]) -> Bool { bytes.contains { $0 >= 0xCD && $0 <= 0xD6 } }

    /// Rewrites `bytes` (and their `origins`) with each qualifying word's skeleton.
    static func fold(_ bytes: [UInt8], _ origins: [Int32]) -> (bytes: [UInt8], origins: [Int32]) {
        let flat = flat
        var out: [UInt8] = [], outOrigins: [Int32] = []
        out.reserveCapacity(bytes.count); outOrigins.reserveCapacity(origins.count)
        var i = 0
        while i < bytes.count {
            guard isWordByte(bytes[i]) else { out.append(bytes[i]); outOrigins.append(origins[i]); i += 1; continue }
            var end = i, latin = 0, upper = 0, lookAlikes = 0, others = 0, foreignLetters = 0
            while end < bytes.count, isWordByte(bytes[end]) {
                let b = bytes[end]
                if b < 0x80 {
                    if ByteClass.isASCIILetter(b) { latin += 1; if ByteClass.isUpper(b) { upper += 1 } }
                    end += 1
                    continue
                }
                let length = ByteClass.sequenceLength(b)
                let mapped = ByteClass.decode(bytes, at: end, length: length).map { lookAlike($0, in: flat) } ?? 0
                if mapped != 0 {
                    lookAlikes += 1
                    if mapped & 0x80 != 0 { foreignLetters += 1 }
                } else {
                    others += 1
                }
                end += length
            }
            let fold = lookAlikes > 0 && (latin > 0 || (others == 0 && foreignLetters > 0))
            let capitals = latin > 0 && upper == latin
            var k = i
            while k < end {
                let b = bytes[k]
                let length = b < 0x80 ? 1 : ByteClass.sequenceLength(b)
                if fold, length == 2, let v = ByteClass.decode(bytes, at: k, length: 2), case let mapped = lookAlike(v, in: flat), mapped != 0 {
                    let ascii = mapped & 0x7F
                    out.append(capitals ? ascii - 0x20 : ascii); outOrigins.append(origins[k])
                } else {
                    for m in k..<min(k + length, bytes.count) { out.append(bytes[m]); outOrigins.append(origins[m]) }
                }
                k += length
            }
            i = end
        }
        outOrigins.append(origins[origins.count - 1])
        return (out, outOrigins)
    }

    /// Letters and digits of any script (bytes ≥ 0x80 are read as letters here: punctuation was folded to
    /// ASCII or is left unmapped by the table).
    @inline(__always) private static func isWordByte(_ b: UInt8) -> Bool { ByteClass.isASCIIAlphanumeric(b) || b >= 0x80 }
}
