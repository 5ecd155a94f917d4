/// A bank account named with its bank: an ABA routing number (3-7-1 checksum), a SWIFT/BIC code
/// (bank, ISO country, location, branch) or a UK sort code, with an account number close by. A routing
/// number or BIC alone is public (banks publish them); the pair moves money.
package enum BankAccountRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.bankAccount]

    /// How far (bytes) the account number may be from the bank code.
    private static let reach = 90

    static let countries: Set<String> = Set("""
        AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD \
        CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF \
        GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN \
        KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA \
        NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI \
        SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI \
        VN VU WF WS XK YE YT ZA ZM ZW
        """.split(separator: " ").map(String.init))

    private static let accountWords = WordSet("""
        account acct acc accountnumber checking savings konto kontonummer cuenta compte conto rekening konta beneficiary \
        routing aba rtn ach transit swift bic sort sortcode bankverbindung iban wire deposit
        """)

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        guard text.digitCount >= 6 else { return }
        let pieces = IdentityNumberRecognizer.pieces(text)
        for (index, piece) in pieces.enumerated() {
            let kind: String?
            if piece.length == 9, piece.digits == 9, isRouting(text, piece) { kind = "routing" }
            else if (piece.length == 8 || piece.length == 11), piece.lower == 0, isBIC(text, piece) { kind = "bic" }
            else if piece.length == 2, piece.digits == 2, let end = sortCodeEnd(text, pieces, index) { kind = end > 0 ? "sort-code" : nil }
            else { kind = nil }
            guard let kind else { continue }
            guard let account = accountNumber(text, pieces, near: index), hasAccountWord(text, around: piece.start) else { continue }
            let lower = min(piece.start, account.lowerBound), upper = max(piece.end, account.upperBound)
            guard !findings.recentlyOverlap(lower..<upper) else { continue }
            findings.append(Finding(kind: .bankAccount, range: lower..<upper, recognizer: "bank-account:" + kind))
        }
    }

    /// 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 mod 10, Federal Reserve prefix 00–12, 21–32, 61–72, 80.
    static func isRouting(_ text: TextScan, _ piece: IdentityNumberRecognizer.Piece) -> Bool {
        let d = text.bytes[piece.start..<piece.end].map { Int($0 &- 0x30) }
        let prefix = d[0] * 10 + d[1]
        guard prefix <= 12 || (21...32).contains(prefix) || (61...72).contains(prefix) || prefix == 80 else { return false }
        return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0
    }

    /// Four bank letters, an ISO country, two location characters, an optional three-character branch.
    static func isBIC(_ text: TextScan, _ piece: IdentityNumberRecognizer.Piece) -> Bool {
        let s = text.bytes[piece.start..<piece.end]
        guard s.prefix(6).allSatisfy(ByteClass.isUpper), s.dropFirst(6).allSatisfy({ ByteClass.isUpper($0) || ByteClass.isDigit($0) })
        else { return false }
        let country = String(decoding: s.dropFirst(4).prefix(2), as: UTF8.self)
        return countries.contains(country)
    }

    /// "20-00-00": returns the end of the third group, 0 when the pieces are not a sort code.
    private static func sortCodeEnd(_ text: TextScan, _ pieces: [IdentityNumberRecognizer.Piece], _ index: Int) -> Int? {
        guard index + 2 < pieces.count else { return nil }
        let b = pieces[index + 1], c = pieces[index + 2]
        guard b.length == 2, b.digits == 2, c.length == 2, c.digits == 2, text.at(pieces[index].end) == 0x2D,
              b.start == pieces[index].end + 1, text.at(b.end) == 0x2D, c.start == b.end + 1 else { return 0 }
        return c.end
    }

    /// A run of 6–17 digits (groups allowed) within `reach` bytes after the code, or before it.
    private static func accountNumber(_ text: TextScan, _ pieces: [IdentityNumberRecognizer.Piece], near index: Int) -> Range<Int>? {
        let anchor = pieces[index]
        for offset in [1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6] {
            let k = index + offset
            guard k >= 0, k < pieces.count else { continue }
            let piece = pieces[k]
            guard piece.digits == piece.length, piece.digits >= 6, piece.digits <= 17 else { continue }
            let distance = offset > 0 ? piece.start - anchor.end : anchor.start - piece.end
            guard distance <= reach else { continue }
            return piece.start..<piece.end
        }
        return nil
    }

    private static func hasAccountWord(_ text: TextScan, around offset: Int) -> Bool {
        let index = text.wordIndex(atOrAfter: offset)
        for k in max(0, index - 8)..<min(text.words.count, index + 10) where accountWords.contains(text.words[k].hash) { return true }
        return false
    }
}
