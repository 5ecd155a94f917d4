/// The Italian codice fiscale's rule: six letters, YY, a month letter, the day (+40 for women), a
/// municipality code and a check letter; "omocodia" codes replace digits with L M N P Q R S T U V.
enum ItalianFiscalCode {
    /// Odd-position (1st, 3rd, …) values of 0–9 and A–Z; even positions count digits and letters as 0–25.
    private static let odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12,
                              14, 16, 10, 22, 25, 24, 23]
    private static let omocodia = Array("LMNPQRSTUV".utf8)
    private static let months = Array("ABCDEHLMPRST".utf8)

    static func isValid(_ s: [UInt8]) -> Bool {
        guard s.count == 16, s[0..<6].allSatisfy(ByteClass.isUpper), months.contains(s[8]), ByteClass.isUpper(s[11]),
              ByteClass.isUpper(s[15]) else { return false }
        // Digit places may hold omocodia letters.
        var digits = s
        for k in [6, 7, 9, 10, 12, 13, 14] {
            if ByteClass.isDigit(s[k]) { continue }
            guard let v = omocodia.firstIndex(of: s[k]) else { return false }
            digits[k] = UInt8(0x30 + v)
        }
        let day = IdentityChecksums.number(digits, 9..<11)
        guard (1...31).contains(day) || (41...71).contains(day) else { return false }
        var sum = 0
        for k in 0..<15 {
            let v = IdentityChecksums.alnumValue(s[k])
            if k % 2 == 0 { sum += odd[v] } else { sum += ByteClass.isDigit(s[k]) ? v : v - 10 }
        }
        return UInt8(0x41 + sum % 26) == s[15]
    }
}

/// The vehicle identification number's check digit (ISO 3779, mandatory in North America): letters
/// transliterated, weighted 8…2, 10, 0, 9…2, sum mod 11 at position 9 ('X' for 10). No I, O or Q.
enum VehicleIdentification {
    private static let weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
    /// A–Z transliteration (I, O, Q are not allowed and map to -1).
    private static let letters = [1, 2, 3, 4, 5, 6, 7, 8, -1, 1, 2, 3, 4, 5, -1, 7, -1, 9, 2, 3, 4, 5, 6, 7, 8, 9]

    static func isValid(_ s: [UInt8]) -> Bool {
        guard s.count == 17 else { return false }
        var sum = 0, digits = 0
        for k in 0..<17 {
            let b = s[k]
            let v: Int
            if ByteClass.isDigit(b) { v = Int(b &- 0x30); digits += 1 } else { v = letters[Int(b &- 0x41)] }
            guard v >= 0 else { return false }
            sum += v * weights[k]
        }
        let r = sum % 11
        // Real VINs mix letters and digits: a 17-digit number is something else.
        return digits >= 3 && digits < 17 && (r == 10 ? s[8] == 0x58 : ByteClass.isDigit(s[8]) && Int(s[8] &- 0x30) == r)
    }
}
