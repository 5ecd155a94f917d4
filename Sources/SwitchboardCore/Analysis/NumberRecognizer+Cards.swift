extension NumberRecognizer {
    /// 13–19 digits in groups of at least 3 joined by one kind of separator (space, '-', or '.', '/', '_'
    /// between groups of four), Luhn-valid, with a card issuer's prefix or card words nearby.
    static func findCards(_ text: TextScan, _ groups: [Group], glued: Bool, into findings: inout [Finding]) {
        for startIndex in groups.indices {
            // A group after a parenthesis is a phone's tail, and one inside a dashed or dotted id
            // ("123-4567890-1234567") is part of that id: neither starts a card.
            if startIndex > 0, !isCardSeparator(groups[startIndex]) || groups[startIndex].separator != 0x20 { continue }
            var digits = 0
            var endIndex = startIndex
            while endIndex < groups.count {
                let group = groups[endIndex]
                if endIndex > startIndex, !isCardSeparator(group) || group.separator != groups[startIndex + 1].separator { break }
                if group.digits < 3 && groups.count > 1 { break }
                digits += group.digits
                if digits > 19 { break }
                if digits >= 13 {
                    let range = groups[startIndex].start..<group.end
                    // An IMEI is Luhn-valid too, and starts like a card: its word makes it a device, not a card.
                    // Without card words, an order, tracking or invoice word says the number is that (one in ten
                    // random numbers passes Luhn).
                    let context = glued || cardContext(text, range.lowerBound)
                    let plausible = issuerPlausible(text, range) && !IdentityContext.shared.hasUnrelatedWord(text, before: range.lowerBound)
                    if luhnValid(text, range), context || plausible,
                       !IdentityNumberRecognizer.hasIMEIWord(text, before: range.lowerBound) {
                        findings.append(Finding(kind: .paymentCard, range: range))
                        return
                    }
                }
                endIndex += 1
            }
        }
    }

    /// Space and '-' join any groups; '.', '/', '_' and unusual separators ('*') only groups of four (a card written 4111.1111…), so
    /// versions, dates and IP addresses are not read as cards.
    private static func isCardSeparator(_ group: Group) -> Bool {
        switch group.separator {
        case 0x20, 0x2D: true
        case 0x2E, 0x2F, 0x5F, 0x2A: group.digits == 4
        default: false
        }
    }

    static func luhnValid(_ text: TextScan, _ range: Range<Int>) -> Bool {
        luhnValid(digits: text.bytes[range].lazy.filter(ByteClass.isDigit).map { $0 &- 0x30 })
    }

    /// Luhn over digit values (0–9), most significant first.
    static func luhnValid<Digits: BidirectionalCollection<UInt8>>(digits: Digits) -> Bool {
        var sum = 0, doubled = false
        for value in digits.reversed() {
            var d = Int(value)
            if doubled { d *= 2; if d > 9 { d -= 9 } }
            sum += d
            doubled.toggle()
        }
        return sum % 10 == 0
    }

    /// Visa 4, Mastercard 51–55 and 2221–2720, Amex/Diners/JCB 3, Discover/UnionPay/Maestro 5–6.
    static func issuerPlausible(_ text: TextScan, _ range: Range<Int>) -> Bool {
        var prefix = 0, seen = 0
        for i in range where seen < 4 {
            let b = text.bytes[i]
            if ByteClass.isDigit(b) { prefix = prefix * 10 + Int(b &- 0x30); seen += 1 }
        }
        switch prefix / 1000 {
        case 3, 4, 5, 6: return true
        case 2: return (2221...2720).contains(prefix)
        default: return false
        }
    }

    static func cardContext(_ text: TextScan, _ offset: Int) -> Bool {
        text.hasWord(.cardContext, before: text.wordIndex(atOrAfter: offset), within: 6)
    }

    /// ddd-dd-dddd with valid area (not 000, 666, 9xx), group (not 00) and serial (not 0000); without
    /// dashes only when SSN words come shortly before.
    static func findSSN(_ text: TextScan, _ groups: [Group], glued: Bool, into findings: inout [Finding]) {
        let context = { glued || text.hasWord(.ssnContext, before: text.wordIndex(atOrAfter: groups[0].start), within: 6) }
        if groups.count == 1, groups[0].digits == 9 {
            let g = groups[0]
            if validSSN(text, area: g.start, group: g.start + 3, serial: g.start + 5), context() {
                findings.append(Finding(kind: .nationalID, range: g.start..<g.end))
            }
            return
        }
        guard groups.count >= 3 else { return }
        for k in 0...(groups.count - 3) {
            let a = groups[k], b = groups[k + 1], c = groups[k + 2]
            guard a.digits == 3, b.digits == 2, c.digits == 4, b.separator == c.separator,
                  b.separator != 0x28 else { continue }
            // Not part of a longer dashed or spaced run.
            if k > 0 && a.separator == b.separator { continue }
            if k + 3 < groups.count && groups[k + 3].separator == b.separator { continue }
            guard validSSN(text, area: a.start, group: b.start, serial: c.start) else { continue }
            if b.separator == 0x2D || context() {
                findings.append(Finding(kind: .nationalID, range: a.start..<c.end))
                return
            }
        }
    }

    private static func validSSN(_ text: TextScan, area: Int, group: Int, serial: Int) -> Bool {
        func number(_ start: Int, _ length: Int) -> Int {
            var value = 0
            for i in start..<start + length { value = value * 10 + Int(text.at(i) &- 0x30) }
            return value
        }
        return validSSN(area: number(area, 3), group: number(group, 2), serial: number(serial, 4))
    }

    /// Area not 000, 666 or 9xx; group not 00; serial not 0000.
    static func validSSN(area: Int, group: Int, serial: Int) -> Bool {
        area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
    }
}
