/// The check-digit algorithms of national identity, tax and device numbers, over the compact form of a
/// candidate (ASCII digits and capitals, separators removed). Each returns whether the number is valid
/// under its scheme's published rule; a number that fails is not that scheme. All arithmetic stays far
/// below overflow: inputs are at most 20 characters.
enum IdentityChecksums {
    /// Digit value of an ASCII digit byte (callers check the shape first).
    @inline(__always) static func digit(_ b: UInt8) -> Int { Int(b &- 0x30) }

    static func allDigits(_ s: ArraySlice<UInt8>) -> Bool { s.allSatisfy(ByteClass.isDigit) }

    /// Σ digit × weight over the first `weights.count` characters.
    static func weighted(_ s: [UInt8], _ weights: [Int], from start: Int = 0) -> Int {
        var sum = 0
        for (k, w) in weights.enumerated() { sum += digit(s[start + k]) * w }
        return sum
    }

    /// Luhn (ISO/IEC 7812-1) over every character; the last is the check digit.
    static func luhn(_ s: [UInt8]) -> Bool {
        NumberRecognizer.luhnValid(digits: s.map { $0 &- 0x30 })
    }

    private static let verhoeffD: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ]
    private static let verhoeffP: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 7, 6, 8, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ]

    /// Verhoeff (dihedral group D5): catches every single error and adjacent transposition.
    static func verhoeff<S: BidirectionalCollection<UInt8>>(_ s: S) -> Bool {
        var c = 0
        for (i, b) in s.reversed().enumerated() { c = verhoeffD[c][verhoeffP[i % 8][digit(b)]] }
        return c == 0
    }

    /// ISO 7064 MOD 11,10 (German Steuer-ID, Croatian OIB): the last digit checks the others.
    static func iso7064Mod11_10(_ s: [UInt8]) -> Bool {
        var p = 10
        for b in s.dropLast() {
            var t = (digit(b) + p) % 10
            if t == 0 { t = 10 }
            p = (2 * t) % 11
        }
        return (11 - p) % 10 == digit(s[s.count - 1])
    }

    /// Two-digit date fields: month 1–12, day 1–31 (also the D-number and gender offsets a scheme adds,
    /// which callers subtract first).
    static func plausibleDate(month: Int, day: Int) -> Bool { (1...12).contains(month) && (1...31).contains(day) }

    static func number(_ s: [UInt8], _ range: Range<Int>) -> Int {
        var value = 0
        for k in range { value = value * 10 + digit(s[k]) }
        return value
    }

    /// Value of a digit or capital as `0-9A-Z` → 0…35.
    static func alnumValue(_ b: UInt8) -> Int { ByteClass.isDigit(b) ? digit(b) : Int(b &- 0x41) + 10 }

    /// Remainder of a long digit string mod `m`, digit by digit (no overflow on 20 digits).
    static func mod(_ s: [UInt8], _ range: Range<Int>, _ m: Int) -> Int {
        var r = 0
        for k in range { r = (r * 10 + digit(s[k])) % m }
        return r
    }
}
