/// National identity, tax and health-insurance numbers of many countries, IMEIs and VINs, read against
/// the `IdentityScheme` table. Candidates are windows of ASCII letter-and-digit pieces joined by short
/// separators (at most three characters of spaces or punctuation: "1 85 05 78 006 084 36",
/// "123.456.789-09", "AB 12 34 56 C"); each window's compact form is tried against the schemes of its
/// length, longest window first, and scored with the words around it.
package enum IdentityNumberRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.nationalID, .deviceID, .vehicleID]

    /// A run of ASCII letters and digits (32-bit fields: a 4 MB text of one-character pieces stays small).
    struct Piece {
        private var start32: Int32, end32: Int32, digits32: Int32, upper16: UInt16, lower16: UInt16
        init(start: Int, end: Int, digits: Int, upper: Int, lower: Int) {
            start32 = Int32(truncatingIfNeeded: start); end32 = Int32(truncatingIfNeeded: end)
            digits32 = Int32(truncatingIfNeeded: digits)
            upper16 = UInt16(truncatingIfNeeded: min(upper, 0xFFFF)); lower16 = UInt16(truncatingIfNeeded: min(lower, 0xFFFF))
        }
        var start: Int { Int(start32) }
        var end: Int { Int(end32) }
        var digits: Int { Int(digits32) }
        var upper: Int { Int(upper16) }
        var lower: Int { Int(lower16) }
        var length: Int { end - start }
    }

    /// Pieces per window and characters per compact form: the longest scheme has 18 characters.
    private static let maxPieces = 8, maxLength = 18

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        guard text.digitCount >= 3 else { return }
        let table = IdentityContext.shared
        let pieces = self.pieces(text)
        var compact: [UInt8] = []
        compact.reserveCapacity(maxLength)
        // One buffer for every window's ends (a window starts at most words of prose: no allocation each).
        var ends: [(index: Int, length: Int, digits: Int)] = []
        ends.reserveCapacity(maxPieces)
        var i = 0
        while i < pieces.count {
            let first = pieces[i]
            // A window starts at a piece with digits or short capitals ("AB 12 34 56 C"), and not in the middle of
            // a longer run of digit groups written alike ("1234 5678 9012": not at "5678"; "1099 27-8664458": at "27").
            let startsRun = first.digits > 0 || (first.lower == 0 && first.length <= 6)
            if !startsRun || (i > 0 && pieces[i - 1].digits > 0 && joinable(text, pieces[i - 1].end, first.start)
                              && (i + 1 == pieces.count || sameGap(text, pieces[i - 1].end..<first.start, first.end..<pieces[i + 1].start))) {
                i += 1; continue
            }
            ends.removeAll(keepingCapacity: true)
            var length = 0, digits = 0, j = i
            while j < pieces.count, j - i < maxPieces {
                // A lowercase word among the groups rules out every longer window (as `match` would):
                // prose after a capital or a number stops here instead of being tried word by word.
                if j > i, pieces[j].digits == 0, pieces[j].lower > 0 { break }
                if j > i, !joinable(text, pieces[j - 1].end, pieces[j].start) { break }
                length += pieces[j].length
                if length > maxLength { break }
                digits += pieces[j].digits
                ends.append((j, length, digits))
                j += 1
            }
            var matched: Int?
            // Fewer than three digits: `match` would refuse the window.
            for end in ends.reversed() where end.digits >= 3 && end.length < 32 && table.lengths & (1 << UInt32(end.length)) != 0 {
                // Not followed by another group of digits: then it is part of a longer number.
                let next = end.index + 1
                if next < pieces.count, pieces[next].digits == pieces[next].length,
                   joinable(text, pieces[end.index].end, pieces[next].start),
                   end.index == i || sameGap(text, pieces[end.index].end..<pieces[next].start, pieces[end.index - 1].end..<pieces[end.index].start) {
                    continue
                }
                if let finding = match(text, pieces[i...end.index], length: end.length, table: table, compact: &compact) {
                    findings.append(finding)
                    matched = end.index
                    break
                }
            }
            i = (matched ?? i) + 1
        }
    }

    private static let imeiHash = Lexicon.hash(of: "imei")

    /// "IMEI" among the six words before `offset`.
    static func hasIMEIWord(_ text: TextScan, before offset: Int) -> Bool {
        let index = text.wordIndex(atOrAfter: offset)
        for k in max(0, index - 6)..<index where text.words[k].hash == imeiHash { return true }
        return false
    }

    static func pieces(_ text: TextScan) -> [Piece] {
        var result: [Piece] = []
        text.bytes.withUnsafeBufferPointer { bytes in
            var i = 0
            while i < bytes.count {
                guard ByteClass.isASCIIAlphanumeric(bytes[i]) else { i += 1; continue }
                let start = i
                var digits = 0, upper = 0, lower = 0
                while i < bytes.count, ByteClass.isASCIIAlphanumeric(bytes[i]) {
                    let b = bytes[i]
                    if ByteClass.isDigit(b) { digits += 1 } else if ByteClass.isUpper(b) { upper += 1 } else { lower += 1 }
                    i += 1
                }
                result.append(Piece(start: start, end: i, digits: digits, upper: upper, lower: lower))
            }
        }
        return result
    }

    /// At most three characters between two pieces, none of them a letter, digit, line break or a
    /// punctuation mark that ends a clause (",", ";", ":", "!", "?", "=", quotes, brackets); "." only
    /// without a following space (a sentence end).
    /// Whether two separators are written alike (same bytes): groups of one number share their separator.
    static func sameGap(_ text: TextScan, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        b.upperBound <= text.bytes.count && text.bytes[a].elementsEqual(text.bytes[b])
    }

    static func joinable(_ text: TextScan, _ end: Int, _ start: Int) -> Bool {
        guard start > end, start - end <= 12 else { return false }
        var characters = 0, k = end
        while k < start {
            let b = text.bytes[k]
            if b < 0x80 {
                switch b {
                case 0x20, 0x2D, 0x2F, 0x5F, 0x2A, 0x7E, 0x7C, 0x2B, 0x23: break
                case 0x2E: if text.at(k + 1) == 0x20 && characters == 0 && start - end > 1 { return false }
                default: return false
                }
                k += 1
            } else {
                let length = ByteClass.sequenceLength(b)
                guard let value = ByteClass.decode(text.bytes, at: k, length: length), let scalar = Unicode.Scalar(value),
                      !scalar.properties.isAlphabetic, scalar.properties.numericType == nil else { return false }
                k += length
            }
            characters += 1
            if characters > 3 { return false }
        }
        return true
    }

    private static func match(_ text: TextScan, _ window: ArraySlice<Piece>, length: Int, table: IdentityContext,
                              compact: inout [UInt8]) -> Finding? {
        guard let first = window.first, let last = window.last else { return nil }
        var digits = 0, upper = 0, lower = 0
        for piece in window {
            // Identifiers are not written with a lowercase word among their groups ("1234 alarm").
            if window.count > 1, piece.digits == 0, piece.lower > 0 { return nil }
            digits += piece.digits; upper += piece.upper; lower += piece.lower
        }
        guard digits >= 3, upper == 0 || lower == 0 else { return nil }
        compact.removeAll(keepingCapacity: true)
        for piece in window {
            for k in piece.start..<piece.end { compact.append(ByteClass.isLower(text.bytes[k]) ? text.bytes[k] - 0x20 : text.bytes[k]) }
        }
        let range = first.start..<last.end
        var context: IdentityContext.Found?
        for index in table.schemes(ofLength: length) {
            let scheme = IdentityScheme.all[index]
            guard scheme.matchesPattern(compact), scheme.validate(compact) else { continue }
            let found = context ?? table.context(text, around: range)
            context = found
            let own = found.schemes & (1 << UInt64(index)) != 0
            if scheme.requiresContext && !own { continue }
            var score = scheme.check.rawValue + scheme.structure
            if scheme.isCanonical(text.bytes[range]) { score += 1 }
            score += own ? 3 : found.generic ? 1 : 0
            if found.unrelated && !own { score -= 3 }
            if score >= 3 { return Finding(kind: scheme.kind, range: range, recognizer: "identity:" + scheme.id) }
        }
        return nil
    }
}
