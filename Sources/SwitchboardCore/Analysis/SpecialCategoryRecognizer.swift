/// Health and the GDPR article 9 special categories (sexual orientation, gender identity, religion,
/// politics, trade-union membership, criminal record, immigration status, ethnicity, genetic and biometric
/// data) about an identifiable person, in every language of `SpecialCategoryLanguage.all`.
///
/// A term of a category counts when a person is tied to it in the same sentence: a first-person word
/// within eight words before it or four after ("I", "mein", "저는", "hamileyim"), a relation after a
/// possessive ("his wife"), clinical shorthand ("Pt", "Dx", "67F"), and for health also "he"/"she" or a
/// capitalized name followed by a verb ("Sarah has"). A pregnancy term with a count of weeks needs no
/// person ("9 weeks pregnant" is said of someone). A pronoun right after "if"/"can"/"should" is
/// hypothetical; a topic word between pronoun and term ("I'm reading about…") makes the term a topic;
/// fiction cues clear the whole text, and public-figure cues clear third persons and names. Special
/// categories are only tied to the speaker and their relations: a named third party's religion or party
/// is, in prompts, almost always a public figure's public fact.
package enum SpecialCategoryRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.health, .specialCategory, .dateOfBirth, .location, .personalContext]

    struct Hit {
        var start: Int, end: Int, word: Int
        var roles: SpecialRole
    }

    /// Health and special-category findings per text (the older rules' included): enough to point at
    /// the data, bounded on hostile input. Personal details add at most `PersonalDetails.maxFindings`.
    static let maxFindings = 32
    private static let termRoles = SpecialRole.categories.union([.partyWord, .unionWord])

    /// The analyzer's health pass: this recognizer and `HealthRecognizer`'s rules over one collection of
    /// table words, the older rules' findings dropped when the clearing cues say so.
    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        guard !text.words.isEmpty else { return }
        let vocabulary = SpecialVocabulary.shared
        var hits: [Hit] = []
        var all = SpecialRole()
        collect(text, vocabulary, into: &hits, all: &all)
        if text.digitCount > 0 { ClinicalShapes.scan(text, vocabulary, hits: &hits, all: &all) }
        // Hits come in text order except the clinical shapes'; sort only then.
        if !hits.indices.dropFirst().allSatisfy({ hits[$0 - 1].start <= hits[$0].start }) { hits.sort { $0.start < $1.start } }
        let before = findings.count
        HealthRecognizer.scanTerms(text, into: &findings)
        if findings.count > before, clearsHealthFindings(text, hits, all) { findings.removeSubrange(before...) }
        if findings.count - before > maxFindings { findings.removeSubrange((before + maxFindings)...) }
        var emitted = findings.count - before
        guard !all.isDisjoint(with: termRoles.union(PersonalDetails.cues)) else { return }
        if !all.isDisjoint(with: PersonalDetails.cues) { PersonalDetails.scan(text, hits, all, into: &findings) }
        guard !all.isDisjoint(with: termRoles), !all.contains(.fiction) else { return }
        let context = Context(text: text, hits: hits, publicFigure: all.contains(.publicFigure),
                              clinicalNote: all.contains(.clinical) && isClinicalNote(text, hits))
        for index in hits.indices where !hits[index].roles.isDisjoint(with: termRoles) {
            if emitted >= maxFindings { return }
            guard let kind = context.kind(ofTermAt: index) else { continue }
            let range = hits[index].start..<hits[index].end
            if findings.recentlyOverlap(range) { continue }
            findings.append(Finding(kind: kind, range: range, level: .sensitive))
            emitted += 1
        }
    }

    private static let pointHashes = [Lexicon.hash(of: "pt"), Lexicon.hash(of: "pts")]

    /// Clinical shorthand anywhere in the text, other than "pt" after a number ("12 pt" is a font size):
    /// the text is a note about its patient, and every health term in it is the patient's.
    private static func isClinicalNote(_ text: TextScan, _ hits: [Hit]) -> Bool {
        hits.contains { hit in
            guard hit.roles.contains(.clinical) else { return false }
            let word = text.words[hit.word]
            guard hit.start == word.start, pointHashes.contains(word.hash), hit.word > 0 else { return true }
            return !text.words[hit.word - 1].isNumber
        }
    }

    /// Whether a text is fiction, or about a public figure and not the speaker: the older health
    /// recognizer's findings are then dropped, as this recognizer's would be.
    /// So is a text whose every first-person word is hypothetical or followed by a topic ("Can I get HIV
    /// from kissing?", "If I'm pregnant, can I…", "I want to understand how antidepressants work") and
    /// that has no other person in it.
    static func clearsHealthFindings(_ text: TextScan) -> Bool {
        var hits: [Hit] = []
        var all = SpecialRole()
        collect(text, SpecialVocabulary.shared, into: &hits, all: &all)
        hits.sort { $0.start < $1.start }
        return clearsHealthFindings(text, hits, all)
    }

    /// `hits` sorted by start.
    private static func clearsHealthFindings(_ text: TextScan, _ hits: [Hit], _ all: SpecialRole) -> Bool {
        if all.contains(.fiction) || (all.contains(.publicFigure) && !all.contains(.selfReference)) { return true }
        guard all.contains(.selfReference), all.isDisjoint(with: [.relation, .clinical, .thirdPerson]) else { return false }
        let context = Context(text: text, hits: hits, publicFigure: false, clinicalNote: false)
        return hits.indices.allSatisfy { !hits[$0].roles.contains(.selfReference) || context.isClearedPronoun($0) }
    }

    // MARK: - Collecting the words of the tables

    private static func collect(_ text: TextScan, _ v: SpecialVocabulary, into hits: inout [Hit], all: inout SpecialRole) {
        let bytes = text.bytes, words = text.words
        let mayBeUnspaced = text.scripts.han + text.scripts.kana > 0
        for index in words.indices {
            let word = words[index]
            var roles = v.exact(word.hash)
            if word.isCapitalized, word.length <= 6, isAllCapitals(bytes, word) { roles |= v.capitals.value(for: word.hash) }
            let lead = bytes[word.start]
            if mayBeUnspaced, word.letters > 0, hasUnspacedScript(bytes, word) {
                // Han and kana runs: an entry may start at any character. The whole word's own roles
                // first, so hits stay in text order.
                if roles & ~SpecialRole.phraseStart.rawValue != 0 {
                    let r = SpecialRole(rawValue: roles & ~SpecialRole.phraseStart.rawValue)
                    hits.append(Hit(start: word.start, end: word.end, word: index, roles: r)); all.formUnion(r)
                    roles &= SpecialRole.phraseStart.rawValue
                }
                var i = word.start
                while i < word.end {
                    var found = probe(bytes, from: i, to: word.end, v)
                    if ByteClass.isASCIIAlphanumeric(bytes[i]), i == word.start || !ByteClass.isASCIIAlphanumeric(bytes[i - 1]) {
                        // A Latin word inside the run ("私のHbA1cは"): its exact entry too.
                        var end = i, hash = Lexicon.hashSeed
                        while end < word.end, ByteClass.isASCIIAlphanumeric(bytes[end]) {
                            hash = Lexicon.hash(hash, ByteClass.isUpper(bytes[end]) ? bytes[end] | 0x20 : bytes[end]); end += 1
                        }
                        let exact = v.exact(hash) & ~SpecialRole.phraseStart.rawValue
                        if exact != 0 { found.roles |= exact; found.end = max(found.end, end) }
                    }
                    if found.roles != 0 {
                        let r = SpecialRole(rawValue: found.roles)
                        hits.append(Hit(start: i, end: found.end, word: index, roles: r)); all.formUnion(r)
                    }
                    i += ByteClass.sequenceLength(bytes[i])
                }
            } else {
                roles |= probe(bytes, from: word.start, to: word.end, v).roles
                if lead >= 0xD8, lead <= 0xDB {
                    // Arabic script: the article and one-letter prepositions attach to the word.
                    var offset = word.start
                    for _ in 0..<3 {
                        offset += ByteClass.sequenceLength(bytes[offset])
                        guard offset + 4 <= word.end else { break }
                        roles |= probe(bytes, from: offset, to: word.end, v).roles
                    }
                } else if let elided = elisionEnd(bytes, word) {
                    // "l'autismo", "d'origine", "l'HIV": the word after the elided article, stem or whole.
                    let found = probe(bytes, from: elided, to: word.end, v, wholeWord: true)
                    roles |= found.roles | v.exact(found.hash)
                } else if ByteClass.isDigit(lead), word.letters > 0 {
                    // A number written onto its word: "9주차", "8일생", "5천만".
                    var i = word.start
                    while i < word.end, ByteClass.isDigit(bytes[i]) { i += 1 }
                    if i < word.end, bytes[i] >= 0x80 { roles |= probe(bytes, from: i, to: word.end, v).roles }
                }
            }
            if roles & SpecialRole.phraseStart.rawValue != 0 { phrases(text, from: index, v, into: &hits, all: &all) }
            roles &= ~SpecialRole.phraseStart.rawValue
            if roles != 0 {
                let r = SpecialRole(rawValue: roles)
                hits.append(Hit(start: word.start, end: word.end, word: index, roles: r)); all.formUnion(r)
            }
        }
    }

    /// Phrases of up to four words starting at `index` ("trade union", "end my life", "ung thư").
    private static func phrases(_ text: TextScan, from index: Int, _ v: SpecialVocabulary, into hits: inout [Hit],
                                all: inout SpecialRole) {
        let bytes = text.bytes, words = text.words
        var hash = words[index].hash
        var length = hashedLength(bytes, words[index])
        var j = index
        while j + 1 < words.count, j - index < 3 {
            let next = words[j + 1]
            guard next.sentence == words[index].sentence, next.start - words[j].end == 1,
                  bytes[words[j].end] == 0x20 || bytes[words[j].end] == 0x2D else { return }
            let found = probe(bytes, from: next.start, to: next.end, v, hash: Lexicon.hash(hash, 0x20), length: length + 1)
            hash = found.hash; length = found.length
            let exact = v.exact(hash)
            let roles = (found.roles | exact) & ~SpecialRole.phraseStart.rawValue
            if roles != 0 {
                let r = SpecialRole(rawValue: roles)
                hits.append(Hit(start: words[index].start, end: next.end, word: index, roles: r)); all.formUnion(r)
            }
            guard exact & SpecialRole.phraseStart.rawValue != 0 else { return }
            j += 1
        }
    }

    /// Every stem that begins at `from`, read up to `to`: their roles, the end of the longest, and the
    /// hash and hashed length reached (a phrase continues from them). A start no stem shares ends
    /// after three bytes.
    @inline(__always)
    static func probe(_ bytes: [UInt8], from: Int, to end: Int, _ v: SpecialVocabulary, hash seed: UInt64 = Lexicon.hashSeed,
                      length seedLength: Int = 0, wholeWord: Bool = false) -> (roles: UInt64, end: Int, hash: UInt64, length: Int) {
        var hash = seed, n = seedLength, i = from, found: UInt64 = 0, matchEnd = from
        while i < end {
            let byte = bytes[i]
            if byte == 0x27 { i += 1; continue }
            if byte == 0xE2, i + 2 < end, bytes[i + 1] == 0x80, bytes[i + 2] == 0x99 { i += 3; continue }
            hash = Lexicon.hash(hash, ByteClass.isUpper(byte) ? byte | 0x20 : byte)
            n += 1; i += 1
            if n == 3, seedLength == 0, !wholeWord, !v.mayStart(hash) { return (found, matchEnd, hash, n) }
            if n < 64, v.lengths & (1 << UInt64(n)) != 0 {
                let roles = v.prefix.value(for: hash)
                if roles != 0 { found |= roles; matchEnd = i }
            } else if n >= 64, seedLength == 0, !wholeWord {
                return (found, matchEnd, hash, n)
            }
            if n == 5, seedLength == 0, !wholeWord, !v.mayContinue(hash) { return (found, matchEnd, hash, n) }
        }
        return (found, matchEnd, hash, n)
    }

    private static func hashedLength(_ bytes: [UInt8], _ word: TextScan.Word) -> Int {
        var n = 0, i = word.start
        while i < word.end {
            if bytes[i] == 0x27 { i += 1; continue }
            if bytes[i] == 0xE2, i + 2 < word.end, bytes[i + 1] == 0x80, bytes[i + 2] == 0x99 { i += 3; continue }
            n += 1; i += 1
        }
        return n
    }

    private static func isAllCapitals(_ bytes: [UInt8], _ word: TextScan.Word) -> Bool {
        for i in word.start..<word.end where ByteClass.isLower(bytes[i]) { return false }
        return word.letters >= 1
    }

    /// Han (U+3400–U+9FFF) or kana: lead bytes 0xE3–0xE9.
    private static func hasUnspacedScript(_ bytes: [UInt8], _ word: TextScan.Word) -> Bool {
        for i in word.start..<word.end where bytes[i] >= 0xE3 && bytes[i] <= 0xE9 { return true }
        return false
    }

    /// "l'", "d'", "qu'", "dell'": where the word after an elided article starts.
    private static func elisionEnd(_ bytes: [UInt8], _ word: TextScan.Word) -> Int? {
        var i = word.start + 1
        while i < min(word.start + 5, word.end - 2) {
            if bytes[i] == 0x27 { return i + 1 }
            if bytes[i] == 0xE2, bytes[i + 1] == 0x80, bytes[i + 2] == 0x99 { return i + 3 }
            i += 1
        }
        return nil
    }
}
