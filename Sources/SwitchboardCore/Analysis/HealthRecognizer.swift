/// Health conditions and medication about a person: a condition or drug tied to a person by a verb
/// ("I have type 2 diabetes", "John takes insulin", "she is on sertraline"), a possessive ("my
/// chemo", "ma mère a un cancer") or "diagnosed"/"prescribed" in a sentence about someone; a test
/// result reported ("I tested positive for…", "the biopsy came back malignant"). Every language in
/// `HealthLanguage.all` is read the same way. General questions ("What is diabetes?", "I have a
/// question about insulin", "what if a biopsy comes back malignant?") are not about a person and stay public.
package enum HealthRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.health]
    private static let person: Lexicon = [.firstPerson, .thirdPerson, .relation]
    private static let onHash = Lexicon.hash(of: "on")

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        let before = findings.count
        scanTerms(text, into: &findings)
        // Fiction and public figures' public facts stay public (the special-category tables know the cues).
        if findings.count > before, SpecialCategoryRecognizer.clearsHealthFindings(text) { findings.removeSubrange(before...) }
    }

    /// The rules without the clearing cues (`SpecialCategoryRecognizer` applies them on its own pass).
    static func scanTerms(_ text: TextScan, into findings: inout [Finding]) {
        scanUnspaced(text, into: &findings)
        let words = text.words
        guard !words.isEmpty, !text.allFlags.isDisjoint(with: [.condition, .medication, .healthStrong, .testResult]) else { return }
        var sentenceFlags: [Lexicon] = Array(repeating: [], count: (words.last?.sentence ?? 0) + 1)
        for word in words { sentenceFlags[word.sentence].formUnion(word.lexicon) }
        for index in words.indices {
            let word = words[index]
            let flags = sentenceFlags[word.sentence]
            if word.lexicon.contains(.testResult), let start = reportedResult(text, resultIndex: index, sentenceFlags: flags) {
                findings.append(Finding(kind: .health, range: start..<word.end))
                continue
            }
            guard flags.contains(.condition) || flags.contains(.medication) || flags.contains(.healthStrong) else { continue }
            if word.lexicon.contains(.healthStrong),
               !flags.isDisjoint(with: person) || namesTermAhead(words, from: index) {
                findings.append(Finding(kind: .health, range: word.start..<word.end))
                continue
            }
            guard !word.lexicon.isDisjoint(with: [.condition, .medication]),
                  let anchor = anchor(text, termIndex: index, hasPerson: !flags.isDisjoint(with: person)) else { continue }
            findings.append(Finding(kind: .health, range: words[anchor].start..<word.end))
        }
    }

    /// "diagnosed with type 2 diabetes", "prescribed metformin": clinical wording is about someone even
    /// when the note never names them, so a condition or drug shortly after it is enough.
    private static func namesTermAhead(_ words: [TextScan.Word], from index: Int) -> Bool {
        let sentence = words[index].sentence
        var k = index + 1
        while k < words.count, k <= index + 5, words[k].sentence == sentence {
            if !words[k].lexicon.isDisjoint(with: [.condition, .medication]) { return true }
            k += 1
        }
        return false
    }

    /// The word that ties the term at `termIndex` to a person, walking back over modifiers.
    private static func anchor(_ text: TextScan, termIndex: Int, hasPerson: Bool) -> Int? {
        let words = text.words
        let term = words[termIndex]
        var k = termIndex - 1
        var skipped = 0
        while k >= 0, words[k].sentence == term.sentence, skipped <= 4 {
            let w = words[k]
            if w.lexicon.contains(.possessive) { return k }
            // "ma mère a un cancer", "у моей мамы рак": a relation named with a possessive.
            if w.lexicon.contains(.relation), k > 0, words[k - 1].lexicon.contains(.possessive) { return k - 1 }
            // "gave me chlamydia": an object pronoun after a health verb.
            if !w.lexicon.isDisjoint(with: [.firstPerson, .thirdPerson]), k > 0, words[k - 1].sentence == term.sentence,
               words[k - 1].lexicon.contains(.healthVerb), !w.lexicon.contains(.copula) { return k - 1 }
            if w.lexicon.contains(.copula) {
                // "I am diabetic", "I'm pregnant", "my mom is diabetic", "Anna was pregnant".
                if w.lexicon.contains(.firstPerson) || isPersonSubject(text, k - 1, sentence: term.sentence) { return k }
                return nil
            }
            if w.lexicon.contains(.healthVerb) || w.lexicon.contains(.healthStrong) {
                if w.hash == onHash && !term.lexicon.contains(.medication) { return nil }
                if hasPerson || isPersonSubject(text, k - 1, sentence: term.sentence) { return k }
                return nil
            }
            guard w.lexicon.contains(.healthModifier) || w.digits > 0 else { return nil }
            skipped += 1
            k -= 1
        }
        return nil
    }

    /// A pronoun, a relation word or a capitalized name (not an ordinary sentence-starting word).
    private static func isPersonSubject(_ text: TextScan, _ index: Int, sentence: Int) -> Bool {
        guard index >= 0, index < text.words.count, text.words[index].sentence == sentence else { return false }
        let w = text.words[index]
        if !w.lexicon.isDisjoint(with: person) { return true }
        // A name is no word of the special-category tables ("Wat", "Co", "Mik" are questions).
        return w.isCapitalized && w.isAlphabetic && w.lexicon.isEmpty && w.length >= 2
            && SpecialVocabulary.shared.exact(w.hash) == 0
    }

    /// A test word shortly before a result word ("tested positive", "biopsy came back malignant"), reported
    /// about a person, naming a condition after it, or in the past tense; returns where the phrase starts.
    private static func reportedResult(_ text: TextScan, resultIndex: Int, sentenceFlags: Lexicon) -> Int? {
        let words = text.words
        let sentence = words[resultIndex].sentence
        var k = resultIndex - 1, past = false
        while k >= 0, k >= resultIndex - 4, words[k].sentence == sentence {
            if words[k].lexicon.contains(.pastResult) { past = true }
            if words[k].lexicon.contains(.testNoun) {
                if past || !sentenceFlags.isDisjoint(with: person) || namesTermAhead(words, from: resultIndex) {
                    return words[k].start
                }
                return nil
            }
            k -= 1
        }
        return nil
    }
}

extension HealthRecognizer {
    private struct Phrases {
        var conditions: [[UInt8]], personCues: [[UInt8]], clinicalCues: [[UInt8]]
    }

    private static let unspaced: [Phrases] = HealthLanguage.all.filter { !$0.conditions.isEmpty }.map { language in
        Phrases(conditions: language.conditions.map { Array($0.utf8) }, personCues: language.personCues.map { Array($0.utf8) },
                clinicalCues: language.clinicalCues.map { Array($0.utf8) })
    }

    /// Languages written without spaces: a condition or drug, and in the same text a person cue ("我有",
    /// "私", "母") or a clinical cue ("诊断", "診断されました").
    static func scanUnspaced(_ text: TextScan, into findings: inout [Finding]) {
        guard text.scripts.han + text.scripts.kana > 0 else { return }
        for language in unspaced {
            guard let condition = firstMatch(text, language.conditions) else { continue }
            if firstMatch(text, language.personCues) != nil || firstMatch(text, language.clinicalCues) != nil {
                findings.append(Finding(kind: .health, range: condition))
                return
            }
        }
    }

    private static func firstMatch(_ text: TextScan, _ phrases: [[UInt8]]) -> Range<Int>? {
        for phrase in phrases {
            guard let first = phrase.first, phrase.count <= text.bytes.count else { continue }
            var i = 0
            while i + phrase.count <= text.bytes.count {
                if text.bytes[i] == first, SecretRecognizer.hasPrefix(text, phrase, at: i) { return i..<(i + phrase.count) }
                i += 1
            }
        }
        return nil
    }
}
