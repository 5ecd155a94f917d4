/// Payment cards, US social security numbers and phone numbers: all runs of digit groups, so they are
/// read together and each span goes to the most specific kind (card, then SSN, then phone).
package enum NumberRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.paymentCard, .nationalID, .phone]

    struct Group {
        var start: Int
        var end: Int
        /// The separator before this group: 0 (first), space, '-', '.', '/', '_', or '(' for any parenthesis.
        var separator: UInt8
        var digits: Int { end - start }
    }

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        guard text.digitCount >= 7 else { return }
        var i = 0
        var groups: [Group] = []
        groups.reserveCapacity(8)
        let count = text.bytes.count
        while i < count {
            guard ByteClass.isDigit(text.bytes[i]) else { i += 1; continue }
            let before = text.at(i - 1)
            let glued = ByteClass.isASCIILetter(before) ? gluedContext(text, before: i) : []
            if glued.isEmpty, ByteClass.isASCIIAlphanumeric(before) || (before == 0x2E || before == 0x2C) && ByteClass.isDigit(text.at(i - 2)) {
                i = skipDigits(text, from: i); continue  // inside a word, a decimal or a thousands group
            }
            groups.removeAll(keepingCapacity: true)
            let end = readGroups(text, from: i, into: &groups)
            classify(text, groups, glued: glued, into: &findings)
            i = max(end, i + 1)
        }
    }

    private static func skipDigits(_ text: TextScan, from start: Int) -> Int {
        var i = start
        while ByteClass.isASCIIAlphanumeric(text.at(i)) { i += 1 }
        return i
    }

    /// Digit groups joined by short separators (" ", "-", ".", parentheses); returns the end offset.
    private static func readGroups(_ text: TextScan, from start: Int, into groups: inout [Group]) -> Int {
        var i = start
        var separator: UInt8 = 0
        while true {
            let groupStart = i
            while ByteClass.isDigit(text.at(i)) { i += 1 }
            if ByteClass.isASCIILetter(text.at(i)) {
                // "5th", "10am" are not part of a number; a long run glued to a word ("…1111exp") still is.
                if i - groupStart >= 12 { groups.append(Group(start: groupStart, end: i, separator: separator)) }
                break
            }
            groups.append(Group(start: groupStart, end: i, separator: separator))
            // Look for a separator of at most three bytes followed by a digit.
            var j = i, sep: UInt8 = 0, punctuation = 0, spaces = 0
            while j - i < 3 {
                let b = text.at(j)
                if b == 0x20 { spaces += 1 } else if b == 0x2D || b == 0x2E || b == 0x2F || b == 0x5F { punctuation += 1; sep = b }
                else if b == 0x28 || b == 0x29 { sep = 0x28 } else { break }
                j += 1
            }
            guard j > i, spaces <= 1, punctuation <= 1, ByteClass.isDigit(text.at(j)) else {
                // Any other short separator (a bullet, a middle dot, " / ", a braille blank): up to three characters
                // that are neither letters, digits nor clause punctuation. Marked '*': it joins only groups of four in a card.
                if let next = otherSeparatorEnd(text, from: i) { separator = 0x2A; i = next; continue }
                break
            }
            if text.at(i) == 0x2E, spaces > 0 { break }  // ". " ends a sentence
            separator = sep == 0 ? 0x20 : sep
            i = j
        }
        return groups.last?.end ?? start
    }

    /// The start of the next digit group after an unusual separator (see `IdentityNumberRecognizer.joinable`).
    private static func otherSeparatorEnd(_ text: TextScan, from end: Int) -> Int? {
        var k = end
        while k < text.bytes.count, k - end <= 12, !ByteClass.isASCIIAlphanumeric(text.bytes[k]) { k += 1 }
        guard k > end, ByteClass.isDigit(text.at(k)), IdentityNumberRecognizer.joinable(text, end, k) else { return nil }
        return k
    }

    /// Card or SSN words glued to the digits: "card4111…", "ssn078051120".
    private static func gluedContext(_ text: TextScan, before end: Int) -> Lexicon {
        var start = end
        while start > 0, ByteClass.isASCIILetter(text.bytes[start - 1]), end - start < 12 { start -= 1 }
        var hash = Lexicon.hashSeed
        for k in start..<end { hash = Lexicon.hash(hash, text.bytes[k] | 0x20) }
        return Lexicon.flags(forHash: hash).intersection([.cardContext, .ssnContext])
    }

    private static func classify(_ text: TextScan, _ groups: [Group], glued: Lexicon, into findings: inout [Finding]) {
        guard let first = groups.first, let last = groups.last else { return }
        let plusAt = plusPrefix(text, first.start)
        if plusAt == nil { findCards(text, groups, glued: glued.contains(.cardContext), into: &findings) }
        if plusAt == nil { findSSN(text, groups, glued: glued.contains(.ssnContext), into: &findings) }
        let span = (plusAt ?? openingParenthesis(text, first.start)) ..< last.end
        guard !findings.recentlyOverlap(span) else { return }
        let digits = groups.reduce(0) { $0 + $1.digits }
        if let plusAt {
            if digits >= 8 && digits <= 15 { findings.append(Finding(kind: .phone, range: plusAt..<last.end)) }
            return
        }
        if isFormattedPhone(groups, digits: digits) {
            findings.append(Finding(kind: .phone, range: span)); return
        }
        let context = text.hasWord(.phoneContext, before: text.wordIndex(atOrAfter: first.start), within: 5)
        if context, digits >= 7, digits <= 15, groups.count <= 5 {
            findings.append(Finding(kind: .phone, range: span))
        }
    }

    /// "(415) 555-0100", "415-555-0100", "415.555.0100", "1 800 555 0100", "020 7946 0958".
    private static func isFormattedPhone(_ groups: [Group], digits: Int) -> Bool {
        guard groups.count >= 3, groups.count <= 4, digits == 10 || digits == 11, let last = groups.last,
              last.digits == 4 else { return false }
        if groups.contains(where: { $0.separator == 0x2E }) {
            return groups.count == 3 && groups[0].digits == 3 && groups[1].digits == 3
        }
        return groups.dropFirst().allSatisfy { $0.digits >= 3 }
    }

    private static func plusPrefix(_ text: TextScan, _ start: Int) -> Int? {
        var p = start - 1
        if text.at(p) == 0x28 { p -= 1 }
        guard text.at(p) == 0x2B else { return nil }
        let before = text.at(p - 1)
        return ByteClass.isASCIIAlphanumeric(before) || before == 0x29 ? nil : p
    }

    private static func openingParenthesis(_ text: TextScan, _ start: Int) -> Int {
        text.at(start - 1) == 0x28 ? start - 1 : start
    }
}
