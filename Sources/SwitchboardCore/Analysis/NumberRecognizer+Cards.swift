extension NumberRecognizer {
    /// 13–19 digits in groups of at least 3 joined by spaces or dashes, Luhn-valid, with a card issuer's
    /// prefix or card words nearby.
    static func findCards(_ text: TextScan, _ groups: [Group], into findings: inout [Finding]) {
        for startIndex in groups.indices {
            // A group after '.' or a parenthesis is a decimal part or a phone's tail, not a card's start.
            if startIndex > 0, groups[startIndex].separator != 0x20, groups[startIndex].separator != 0x2D { continue }
            var digits = 0
            var endIndex = startIndex
            while endIndex < groups.count {
                let group = groups[endIndex]
                if endIndex > startIndex, group.separator != 0x20, group.separator != 0x2D { break }
                if group.digits < 3 && groups.count > 1 { break }
                digits += group.digits
                if digits > 19 { break }
                if digits >= 13 {
                    let range = groups[startIndex].start..<group.end
                    if luhnValid(text, range), issuerPlausible(text, range) || cardContext(text, range.lowerBound) {
                        findings.append(Finding(kind: .paymentCard, range: range))
                        return
                    }
                }
                endIndex += 1
            }
        }
    }

    static func luhnValid(_ text: TextScan, _ range: Range<Int>) -> Bool {
        var sum = 0, doubled = false
        for i in range.reversed() {
            let b = text.bytes[i]
            guard ByteClass.isDigit(b) else { continue }
            var d = Int(b &- 0x30)
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
    static func findSSN(_ text: TextScan, _ groups: [Group], into findings: inout [Finding]) {
        let context = { text.hasWord(.ssnContext, before: text.wordIndex(atOrAfter: groups[0].start), within: 6) }
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
                  b.separator == 0x2D || b.separator == 0x20 else { continue }
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
        let a = number(area, 3), g = number(group, 2), s = number(serial, 4)
        return a != 0 && a != 666 && a < 900 && g != 0 && s != 0
    }
}
