/// Personal data the table cues point at, at least `personal`: a date of birth in words or in CJK form
/// ("nací el 3 de marzo de 1985", "1985年3月3日生まれ"), home coordinates and a home network's public IP
/// address, a licence plate after its cue, money the speaker earns or owes, a named person with an employer,
/// a child with their school. Run by `SpecialCategoryRecognizer` on the hits it already collected, only
/// when one of these cues is in the text.
enum PersonalDetails {
    typealias Hit = SpecialCategoryRecognizer.Hit
    static let cues: SpecialRole = [.birth, .finance, .home, .plate, .employer, .school]
    static let maxFindings = 8

    static func scan(_ text: TextScan, _ hits: [Hit], _ all: SpecialRole, into findings: inout [Finding]) {
        let before = findings.count
        if all.contains(.birth), text.digitCount > 0 || all.contains(.numberWord) {
            birthDates(text, hits, spelledDays: all.contains(.selfReference), into: &findings)
        }
        if all.contains(.home), text.digitCount >= 4 { homeLocations(text, into: &findings) }
        if all.contains(.plate), text.digitCount > 0 { plates(text, hits, into: &findings) }
        if all.contains(.finance), text.digitCount > 0, all.contains(.selfReference) { money(text, hits, into: &findings) }
        if all.contains(.employer) { employers(text, hits, into: &findings) }
        if all.contains(.school), all.contains(.child), all.contains(.selfReference) { schools(text, hits, into: &findings) }
        if findings.count - before > maxFindings { findings.removeSubrange((before + maxFindings)...) }
    }

    // MARK: Dates of birth

    private static func birthDates(_ text: TextScan, _ hits: [Hit], spelledDays: Bool, into findings: inout [Finding]) {
        if text.scripts.han + text.scripts.hangul > 0, let date = cjkDate(text) {
            findings.append(Finding(kind: .dateOfBirth, range: date)); return
        }
        let words = text.words
        for cue in first(hits, .birth) {
            let sentence = words[cue.word].sentence
            let low = max(0, cue.word - 7), high = min(words.count - 1, cue.word + 7)
            for month in hits where month.roles.contains(.month) && month.word >= low && month.word <= high {
                guard words[month.word].sentence == sentence else { continue }
                // A day or a year within two words of the month: "3 de marzo de 1985", "3. März 1985",
                // "the third of March".
                let near = max(0, month.word - 2)...min(words.count - 1, month.word + 2)
                // A spelled day only in a text about the speaker ("Born on the Fourth of July" is a film).
                let spelled = spelledDays ? hits.first { $0.roles.contains(.numberWord) && near.contains($0.word) } : nil
                for k in near where words[k].isNumber && words[k].digits <= 4 && words[k].sentence == sentence || spelled?.word == k {
                    findings.append(Finding(kind: .dateOfBirth, range: min(cue.start, words[k].start)..<max(cue.end, words[k].end)))
                    return
                }
            }
        }
    }

    /// "1985年3月3日", "1992년 4월 8일": year, month and day markers after their numbers.
    static func cjkDate(_ text: TextScan) -> Range<Int>? {
        let b = text.bytes
        let year: [[UInt8]] = [[0xE5, 0xB9, 0xB4], [0xEB, 0x85, 0x84]], month: [[UInt8]] = [[0xE6, 0x9C, 0x88], [0xEC, 0x9B, 0x94]]
        let day: [[UInt8]] = [[0xE6, 0x97, 0xA5], [0xEC, 0x9D, 0xBC]]
        var i = 0
        while i < b.count {
            guard ByteClass.isDigit(b[i]), i == 0 || !ByteClass.isDigit(b[i - 1]) else { i += 1; continue }
            let start = i
            var k = i
            guard let afterYear = number(b, &k, 4...4), let y = marker(b, afterYear, year),
                  var m = Optional(skipSpace(b, y)), let afterMonth = number(b, &m, 1...2), let d0 = marker(b, afterMonth, month),
                  var d = Optional(skipSpace(b, d0)), let afterDay = number(b, &d, 1...2), let end = marker(b, afterDay, day)
            else { i += 1; continue }
            return start..<end
        }
        return nil
    }

    private static func number(_ b: [UInt8], _ i: inout Int, _ digits: ClosedRange<Int>) -> Int? {
        let start = i
        while i < b.count, ByteClass.isDigit(b[i]) { i += 1 }
        guard digits.contains(i - start) else { return nil }
        return skipSpace(b, i)
    }

    private static func skipSpace(_ b: [UInt8], _ i: Int) -> Int { i < b.count && b[i] == 0x20 ? i + 1 : i }

    private static func marker(_ b: [UInt8], _ i: Int, _ markers: [[UInt8]]) -> Int? {
        for m in markers where i + 3 <= b.count && b[i] == m[0] && b[i + 1] == m[1] && b[i + 2] == m[2] { return i + 3 }
        return nil
    }

    // MARK: Home coordinates and IP addresses

    /// "40.7484, -73.9857" (three decimals or more, latitude within ±90, longitude within ±180) or a
    /// public IPv4 address, in a text that speaks of a home.
    private static func homeLocations(_ text: TextScan, into findings: inout [Finding]) {
        let b = text.bytes
        var i = 0
        while i < b.count {
            let startsNumber = ByteClass.isDigit(b[i]) || (b[i] == 0x2D && ByteClass.isDigit(text.at(i + 1)))
            guard startsNumber, i == 0 || !(ByteClass.isASCIIAlphanumeric(b[i - 1]) || b[i - 1] == 0x2E) else { i += 1; continue }
            if let ip = ipv4(b, at: i) {
                findings.append(Finding(kind: .location, range: i..<ip)); return
            }
            if let first = decimal(b, at: i), abs(first.value) <= 90 {
                var k = first.end
                if k < b.count, b[k] == 0x2C { k += 1 }
                if k < b.count, b[k] == 0x20 { k += 1 }
                if let second = decimal(b, at: k), abs(second.value) <= 180, k > first.end {
                    findings.append(Finding(kind: .location, range: i..<second.end)); return
                }
            }
            i += 1
        }
    }

    /// A decimal with at least three digits after the point: its value and end.
    private static func decimal(_ b: [UInt8], at start: Int) -> (value: Double, end: Int)? {
        var i = start
        if i < b.count, b[i] == 0x2D { i += 1 }
        let integerStart = i
        while i < b.count, ByteClass.isDigit(b[i]) { i += 1 }
        guard (1...3).contains(i - integerStart), i < b.count, b[i] == 0x2E else { return nil }
        i += 1
        let fractionStart = i
        while i < b.count, ByteClass.isDigit(b[i]), i - fractionStart < 12 { i += 1 }
        guard i - fractionStart >= 3, !(i < b.count && ByteClass.isDigit(b[i])), !(i < b.count && b[i] == 0x2E) else { return nil }
        guard let value = Double(String(decoding: b[start..<i], as: UTF8.self)) else { return nil }
        return (value, i)
    }

    /// Four octets of at most 255, not a private, loopback or link-local range; returns the end.
    private static func ipv4(_ b: [UInt8], at start: Int) -> Int? {
        var octets: [Int] = [], i = start
        while octets.count < 4 {
            let s = i
            var value = 0
            while i < b.count, ByteClass.isDigit(b[i]), i - s < 3 { value = value * 10 + Int(b[i] - 0x30); i += 1 }
            guard i > s, value <= 255 else { return nil }
            octets.append(value)
            if octets.count < 4 { guard i < b.count, b[i] == 0x2E else { return nil }; i += 1 }
        }
        if i < b.count, ByteClass.isDigit(b[i]) || (b[i] == 0x2E && ByteClass.isDigit(i + 1 < b.count ? b[i + 1] : 0)) { return nil }
        let (a, second) = (octets[0], octets[1])
        let isPrivate = a == 10 || a == 127 || a == 0 || (a == 192 && second == 168) || (a == 172 && (16...31).contains(second))
            || (a == 169 && second == 254) || a >= 224
        return isPrivate ? nil : i
    }

    // MARK: Licence plates, money, employers, schools

    /// After a plate cue, within six words: groups of capitals and digits, four to ten characters in all,
    /// with at least one digit ("7ABC123", "KA 01 AB 1234", "B-MW 1234", "1234 BCD").
    private static func plates(_ text: TextScan, _ hits: [Hit], into findings: inout [Finding]) {
        let words = text.words
        for cue in first(hits, .plate) {
            var k = cue.word + 1
            while k < words.count, k <= cue.word + 6, words[k].sentence == words[cue.word].sentence {
                var j = k, characters = 0, digits = 0, letters = 0
                while j < words.count, isPlateGroup(text, words[j]), characters + words[j].length <= 10 {
                    characters += words[j].length; digits += words[j].digits; letters += words[j].letters
                    guard j + 1 < words.count, words[j + 1].start - words[j].end == 1 else { j += 1; break }
                    j += 1
                }
                if characters >= 4, digits > 0, letters > 0 || characters >= 5, j > k {
                    findings.append(Finding(kind: .personalContext, range: cue.start..<words[j - 1].end, level: .personal))
                    return
                }
                k += 1
            }
        }
    }

    private static func isPlateGroup(_ text: TextScan, _ word: TextScan.Word) -> Bool {
        guard word.length <= 8, word.letters + word.digits == word.length else { return false }
        for i in word.start..<word.end where ByteClass.isLower(text.bytes[i]) { return false }
        return true
    }

    /// A finance cue ("earn", "owe", "Gehalt", "年収"), an amount (a currency word or sign) and a number in
    /// the same sentence as a first-person word.
    private static func money(_ text: TextScan, _ hits: [Hit], into findings: inout [Finding]) {
        let words = text.words
        for cue in first(hits, .finance) {
            let sentence = words[cue.word].sentence
            let inSentence = hits.filter { words[$0.word].sentence == sentence && abs($0.word - cue.word) <= 16 }
            guard inSentence.contains(where: { $0.roles.contains(.selfReference) }),
                  words.contains(where: { $0.sentence == sentence && $0.digits > 0 }) else { continue }
            let hasCurrency = inSentence.contains { $0.roles.contains(.currency) } || hasCurrencySign(text, sentence: sentence)
                || words.contains { $0.sentence == sentence && isThousands(text, $0) }
            guard hasCurrency else { continue }
            findings.append(Finding(kind: .personalContext, range: cue.start..<cue.end, level: .personal))
            return
        }
    }

    /// "60k", "15K", "2m": an amount written with a thousands or millions suffix.
    private static func isThousands(_ text: TextScan, _ word: TextScan.Word) -> Bool {
        guard word.digits > 0, word.letters == 1, word.length == word.digits + 1 else { return false }
        let last = text.bytes[word.end - 1] | 0x20
        return last == 0x6B || last == 0x6D
    }

    /// '$', '£', '€', '¥', '₹' in the sentence.
    private static func hasCurrencySign(_ text: TextScan, sentence: Int) -> Bool {
        guard let first = text.words.firstIndex(where: { $0.sentence == sentence }),
              let last = text.words.lastIndex(where: { $0.sentence == sentence }) else { return false }
        let b = text.bytes
        var i = max(0, text.words[first].start - 4)
        while i < min(b.count, text.words[last].end + 4) {
            if b[i] == 0x24 { return true }
            if b[i] == 0xC2, i + 1 < b.count, b[i + 1] == 0xA3 || b[i + 1] == 0xA5 { return true }
            if b[i] == 0xE2, i + 2 < b.count, b[i + 1] == 0x82, b[i + 2] == 0xAC || b[i + 2] == 0xB9 { return true }
            i += 1
        }
        return false
    }

    /// "Daniel Okafor works at Deloitte", "I'm Jane Doe and I work at Acme": a two-word name before an
    /// employer cue.
    private static func employers(_ text: TextScan, _ hits: [Hit], into findings: inout [Finding]) {
        let words = text.words
        for cue in first(hits, .employer) {
            var k = cue.word - 1
            while k > 0, k >= cue.word - 12 {
                if isName(text, k - 1, hits), isName(text, k, hits) {
                    findings.append(Finding(kind: .personalContext, range: words[k - 1].start..<cue.end, level: .personal))
                    return
                }
                k -= 1
            }
        }
    }

    /// A child and a school in a text about the speaker, with the school named: a capitalized word
    /// inside a sentence (Latin script) or any school word in other scripts ("北京第一小学").
    private static func schools(_ text: TextScan, _ hits: [Hit], into findings: inout [Finding]) {
        let words = text.words
        for cue in first(hits, .school) {
            let sentence = words[cue.word].sentence
            guard hits.contains(where: { $0.roles.contains(.child) && words[$0.word].sentence == sentence }) else { continue }
            let nearby = max(1, cue.word - 12)...max(1, min(words.count - 1, cue.word + 12))
            let named = text.bytes[cue.start] >= 0x80 || nearby.contains { k in
                words[k].sentence == sentence && words[k - 1].sentence == sentence && isName(text, k, hits)
            }
            if named {
                findings.append(Finding(kind: .personalContext, range: cue.start..<cue.end, level: .personal))
                return
            }
        }
    }

    private static let commonWords: Lexicon = [.english, .spanish, .french, .german, .month, .relation, .firstPerson]

    /// A capitalized Latin word (not all capitals, not a common or table word).
    private static func isName(_ text: TextScan, _ index: Int, _ hits: [Hit]) -> Bool {
        guard index >= 0, index < text.words.count else { return false }
        let word = text.words[index]
        guard word.isCapitalized, word.isAlphabetic, word.length >= 2, ByteClass.isLower(text.at(word.start + 1)),
              word.lexicon.isDisjoint(with: commonWords) else { return false }
        var low = 0, high = hits.count
        while low < high {
            let mid = (low + high) / 2
            if hits[mid].start < word.start { low = mid + 1 } else { high = mid }
        }
        while low < hits.count, hits[low].start == word.start {
            if !hits[low].roles.isDisjoint(with: [.child, .school, .selfReference]) { return false }
            low += 1
        }
        return true
    }

    /// The first few hits with a cue: enough for a prompt, bounded on hostile input.
    private static func first(_ hits: [Hit], _ role: SpecialRole) -> [Hit] {
        Array(hits.lazy.filter { $0.roles.contains(role) }.prefix(4))
    }
}
