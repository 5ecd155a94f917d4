/// Street addresses, dates of birth and first-person personal context ("my wife", "I live in": at
/// least contextual; "my address is", "I live at": personal).
package enum PersonalRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.streetAddress, .dateOfBirth, .personalContext]
    /// Hashes of the cue words, computed once (a lazily initialized static costs a `swift_once` check
    /// per read, so `scan` reads this once per text).
    private struct Cues {
        let my = Lexicon.hash(of: "my"), i = Lexicon.hash(of: "i"), at = Lexicon.hash(of: "at"), of = Lexicon.hash(of: "of")
        let date = Lexicon.hash(of: "date"), birth = Lexicon.hash(of: "birth"), work = Lexicon.hash(of: "work")
        let d = Lexicon.hash(of: "d"), o = Lexicon.hash(of: "o"), b = Lexicon.hash(of: "b")
    }
    private static let cues = Cues()

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        let words = text.words
        let cues = cues
        for index in words.indices {
            let word = words[index]
            if word.digits > 0 {
                scanAddress(text, numberIndex: index, into: &findings)
            } else if word.lexicon.contains(.birthCue) || isDateOfBirthPhrase(text, index, cues) {
                scanBirthDate(text, cueIndex: index, into: &findings)
            } else if word.hash == cues.my {
                scanMy(text, index, into: &findings)
            } else if word.hash == cues.i, let next = following(text, index), words[next].lexicon.contains(.livePlace) {
                // "I live at <address>" says where; "I live in <city>", "I work at <company>" only hint.
                let precise = following(text, next).map { words[$0].hash == cues.at && words[next].hash != cues.work } ?? false
                findings.append(Finding(kind: .personalContext, range: word.start..<words[next].end,
                                        level: precise ? .personal : .contextual))
            }
        }
    }

    /// The next word in the same sentence.
    static func following(_ text: TextScan, _ index: Int) -> Int? {
        let next = index + 1
        guard next < text.words.count, text.words[next].sentence == text.words[index].sentence else { return nil }
        return next
    }

    /// "my wife", "my phone is broken" → contextual; "my address is …", "my name: …", "my home address" → personal.
    private static func scanMy(_ text: TextScan, _ index: Int, into findings: inout [Finding]) {
        let words = text.words
        guard let next = following(text, index) else { return }
        let noun = words[next]
        if noun.lexicon.contains(.relation) {
            findings.append(Finding(kind: .personalContext, range: words[index].start..<noun.end, level: .contextual))
        } else if noun.lexicon.contains(.personalNoun) {
            var strong = noun.lexicon.contains(.identityNoun) && text.at(noun.end) == 0x3A
            if let after = following(text, next) {
                let stated = noun.lexicon.contains(.identityNoun) && words[after].lexicon.contains(.copula)
                strong = strong || stated || words[after].lexicon.contains(.identityNoun)  // "my home address"
            }
            findings.append(Finding(kind: .personalContext, range: words[index].start..<noun.end,
                                    level: strong ? .personal : .contextual))
        }
    }

    /// "221B Baker Street", "1600 Pennsylvania Ave", "42 5th Avenue": a house number, one to three
    /// capitalized (or ordinal) name words and a street suffix, separated by single spaces.
    private static func scanAddress(_ text: TextScan, numberIndex: Int, into findings: inout [Finding]) {
        let words = text.words
        let number = words[numberIndex]
        guard number.digits <= 6, number.letters <= 1, ByteClass.isDigit(text.bytes[number.start]) else { return }
        var k = numberIndex + 1
        var names = 0
        while k < words.count, names <= 3, spacedOnly(text, words[k - 1].end, words[k].start) {
            let w = words[k]
            let suffix = w.lexicon.contains(.streetSuffix) || w.lexicon.contains(.streetSuffixShort)
            if suffix, names > 0, w.isCapitalized || w.lexicon.contains(.streetSuffix) {
                findings.append(Finding(kind: .streetAddress, range: number.start..<w.end))
                return
            }
            let ordinal = w.digits > 0 && w.letters == 2
            guard (w.isCapitalized && w.isAlphabetic) || ordinal else { return }
            names += 1
            k += 1
        }
    }

    private static func spacedOnly(_ text: TextScan, _ end: Int, _ start: Int) -> Bool {
        start - end == 1 && text.at(end) == 0x20
    }

    /// "date of birth", "d.o.b.".
    private static func isDateOfBirthPhrase(_ text: TextScan, _ index: Int, _ cues: Cues) -> Bool {
        let words = text.words
        guard index + 2 < words.count else { return false }
        let first = words[index].hash, second = words[index + 1].hash, third = words[index + 2].hash
        return (first == cues.date && second == cues.of && third == cues.birth)
            || (first == cues.d && second == cues.o && third == cues.b && words[index + 2].start - words[index].end == 3)
    }

    /// A full date within six words after the cue: 12/03/1985, 1985-03-12, 3 March 1985, March 3.
    private static func scanBirthDate(_ text: TextScan, cueIndex: Int, into findings: inout [Finding]) {
        let words = text.words
        var k = cueIndex + 1
        while k < words.count, k <= cueIndex + 6, words[k].sentence == words[cueIndex].sentence {
            let w = words[k]
            if w.isNumber, let end = numericDateEnd(text, wordIndex: k) {
                findings.append(Finding(kind: .dateOfBirth, range: words[cueIndex].start..<end)); return
            }
            if w.lexicon.contains(.month) {
                let neighbours = [k - 1, k + 1].filter { $0 > cueIndex && $0 < words.count }
                if let day = neighbours.first(where: { words[$0].isNumber && words[$0].digits <= 4 }) {
                    findings.append(Finding(kind: .dateOfBirth, range: words[cueIndex].start..<words[max(day, k)].end))
                    return
                }
            }
            k += 1
        }
    }

    /// Three numbers joined by '/', '-' or '.' (each separator one byte).
    private static func numericDateEnd(_ text: TextScan, wordIndex: Int) -> Int? {
        let words = text.words
        guard wordIndex + 2 < words.count else { return nil }
        let a = words[wordIndex], b = words[wordIndex + 1], c = words[wordIndex + 2]
        guard b.isNumber, c.isNumber, b.start - a.end == 1, c.start - b.end == 1 else { return nil }
        let s1 = text.at(a.end), s2 = text.at(b.end)
        guard s1 == s2, s1 == 0x2F || s1 == 0x2D || s1 == 0x2E else { return nil }
        return c.end
    }
}
