extension SpecialCategoryRecognizer {
    /// The decision for each term: its categories (after weak terms met their qualifier) and whether a
    /// person is tied to it. Hits are sorted by start; every search stays inside a window of words and
    /// bytes around the term, so a long text costs linear time.
    struct Context {
        let text: TextScan
        let hits: [Hit]
        let publicFigure: Bool
        let clinicalNote: Bool
        static let before = 8, after = 4, byteWindow = 200

        /// `.health`, `.specialCategory`, or nil when the term is not about an identifiable person.
        func kind(ofTermAt index: Int) -> EntityKind? {
            let term = hits[index]
            var categories = term.roles.intersection(.categories)
            if term.roles.contains(.partyWord), has(.membership, near: index) { categories.insert(.politics) }
            if term.roles.contains(.unionWord), has(.membership, near: index) { categories.insert(.union) }
            if categories.contains(.lab), !numberNear(term) { categories.remove(.lab) }
            guard !categories.isEmpty else { return nil }
            let health = !categories.isDisjoint(with: .healthCategories)
            let kind: EntityKind = health ? .health : .specialCategory
            if categories.contains(.pregnancy), countsWeeks(near: index) { return kind }
            if health, clinicalNote || isLabelledCode(term) { return kind }
            // A lab value with its number is the asker's even in a question ("If my A1c is 6.9, am I diabetic?").
            return isAnchored(index, health: health, concrete: categories.contains(.lab)) ? kind : nil
        }

        /// Indices of the hits in the term's window.
        private func window(_ index: Int) -> ClosedRange<Int> {
            let term = hits[index]
            var low = index, high = index
            while low > 0, hits[low - 1].start >= term.start - Self.byteWindow, hits[low - 1].word >= term.word - Self.before { low -= 1 }
            while high + 1 < hits.count, hits[high + 1].start <= term.end + Self.byteWindow,
                  hits[high + 1].word <= term.word + Self.after { high += 1 }
            return low...high
        }

        private func sameSentence(_ a: Hit, _ b: Hit) -> Bool { text.words[a.word].sentence == text.words[b.word].sentence }

        private func has(_ role: SpecialRole, near index: Int) -> Bool {
            window(index).contains { hits[$0].roles.contains(role) && sameSentence(hits[$0], hits[index]) }
        }

        /// A number within four words after a lab test, or right before it ("LDL 190", "HbA1c は 8.0%").
        private func numberNear(_ term: Hit) -> Bool {
            let words = text.words
            let sentence = words[term.word].sentence
            for k in max(0, term.word - 1)...min(words.count - 1, term.word + 4) where words[k].sentence == sentence {
                if words[k].digits > 0 { return true }
            }
            return false
        }

        /// "9 weeks pregnant", "schwanger in der 9. Woche", "妊娠9週", "wiki tisa": a week word and a number
        /// near a pregnancy term.
        private func countsWeeks(near index: Int) -> Bool {
            let term = hits[index]
            let range = window(index)
            guard range.contains(where: { hits[$0].roles.contains(.week) && sameSentence(hits[$0], term) }) else { return false }
            if range.contains(where: { hits[$0].roles.contains(.numberWord) && sameSentence(hits[$0], term) }) { return true }
            let words = text.words
            for k in max(0, term.word - 4)...min(words.count - 1, term.word + 4)
            where words[k].digits > 0 && words[k].sentence == words[term.word].sentence {
                return true
            }
            return false
        }

        private func isAnchored(_ index: Int, health: Bool, concrete: Bool) -> Bool {
            let term = hits[index]
            for k in window(index) {
                let anchor = hits[k]
                guard !anchor.roles.isDisjoint(with: .anchors), sameSentence(anchor, term), !isGeneric(k) else { continue }
                if anchor.roles.contains(.selfReference) {
                    if k != index, (isHypothetical(k) && !concrete) || hasTopic(between: k, index) || isForeignI(anchor) { continue }
                    // A pronoun after the term ("kanker … saya", "for my class") counts unless the
                    // sentence has made the term a topic before it.
                    let inside = anchor.start >= term.start && anchor.end <= term.end  // "ending my life"
                    if anchor.start > term.start, !inside, hasTopic(before: k) { continue }
                    return true
                }
                if anchor.roles.contains(.relation), let owner = possessor(of: k) {
                    if !hits[owner].roles.contains(.selfReference) && (publicFigure || !health) { continue }
                    if hasTopic(between: k, index) { continue }
                    return true
                }
                // "she has", "he was": the pronoun is the subject of the term ("he diagnoses lupus" is the doctor).
                if anchor.roles.contains(.thirdPerson), health, !publicFigure, !isHypothetical(k), !hasTopic(between: k, index),
                   roles(ofWord: anchor.word + 1, sentence: text.words[anchor.word].sentence).contains(.haveBe)
                    || roles(ofWord: anchor.word + 1, sentence: text.words[anchor.word].sentence).contains(.copula) {
                    return true
                }
            }
            return health && (opensWithDroppedSubject(term) || !publicFigure && namesPerson(before: term))
        }

        /// The term's sentence opens with a pronoun-dropping word, and the term follows within eight words
        /// with no topic word between ("Recently diagnosed with MS", "Been on Zoloft").
        private func opensWithDroppedSubject(_ term: Hit) -> Bool {
            let words = text.words
            let sentence = words[term.word].sentence
            var first = term.word
            while first > 0, words[first - 1].sentence == sentence, term.word - first <= 8 { first -= 1 }
            guard first == 0 || words[first - 1].sentence != sentence, term.word - first <= 8, term.word > first || term.start > words[first].start,
                  roles(ofWord: first, sentence: sentence).contains(.droppedSubject) else { return false }
            // "Diagnosed diabetes rates rose": a participle right before its noun is an adjective.
            if words[first].hash == Self.diagnosedHash, term.word == first + 1 { return false }
            var low = 0, high = hits.count
            while low < high {
                let mid = (low + high) / 2
                if hits[mid].start < words[first].start { low = mid + 1 } else { high = mid }
            }
            while low < hits.count, hits[low].start < term.start {
                if hits[low].roles.contains(.topic) || hits[low].roles.contains(.fiction) { return false }
                low += 1
            }
            return true
        }

        /// A first-person word that is hypothetical, or followed in its sentence by a topic word.
        func isClearedPronoun(_ index: Int) -> Bool {
            if isHypothetical(index) { return true }
            var k = index + 1
            while k < hits.count, sameSentence(hits[k], hits[index]), hits[k].start <= hits[index].end + Self.byteWindow {
                if hits[k].roles.contains(.topic) { return true }
                k += 1
            }
            return false
        }

        private static let lowercaseI = Lexicon.hash(of: "i")
        private static let diagnosedHash = Lexicon.hash(of: "diagnosed")

        /// Lowercase "i" is the Italian article ("i sintomi") unless the text has other English words.
        private func isForeignI(_ anchor: Hit) -> Bool {
            let word = text.words[anchor.word]
            guard word.hash == Self.lowercaseI, word.length == 1, text.bytes[word.start] == 0x69 else { return false }
            var english = 0
            for w in text.words where w.lexicon.contains(.english) {
                english += 1
                if english >= 3 { return false }
            }
            return true
        }

        /// A topic word earlier in the anchor's sentence.
        private func hasTopic(before index: Int) -> Bool {
            var k = index - 1
            while k >= 0, sameSentence(hits[k], hits[index]), hits[k].start >= hits[index].start - Self.byteWindow {
                if hits[k].roles.contains(.topic) { return true }
                k -= 1
            }
            return false
        }

        private static let codeLabels = [Lexicon.hash(of: "dx"), Lexicon.hash(of: "ddx"), Lexicon.hash(of: "assessment"),
                                         Lexicon.hash(of: "diagnosis"), Lexicon.hash(of: "impression")]

        /// An ICD-10 code right after a diagnosis label ("Dx: F32.1", "Assessment: I10") is a record.
        private func isLabelledCode(_ term: Hit) -> Bool {
            let words = text.words
            guard term.word > 0, words[term.word].start == term.start, words[term.word].digits > 0 else { return false }
            return Self.codeLabels.contains(words[term.word - 1].hash) && words[term.word - 1].sentence == words[term.word].sentence
        }

        /// "我们", "우리는": a first-person cue inside a word for people in general.
        private func isGeneric(_ index: Int) -> Bool {
            let anchor = hits[index]
            var k = index
            while k > 0, hits[k - 1].start >= anchor.start - 6 { k -= 1 }
            while k < hits.count, hits[k].start <= anchor.start {
                if hits[k].roles.contains(.generic), hits[k].start <= anchor.start, hits[k].end >= anchor.end { return true }
                k += 1
            }
            return false
        }

        /// "if I", "can I", "should I", "如果我": the hit right before the pronoun is hypothetical.
        private func isHypothetical(_ index: Int) -> Bool {
            let anchor = hits[index]
            var k = index - 1
            while k >= 0, hits[k].start >= anchor.start - 24 {
                if hits[k].end <= anchor.start, anchor.start - hits[k].end <= 2, hits[k].roles.contains(.hypothetical) { return true }
                k -= 1
            }
            return false
        }

        /// A topic word between the anchor and the term, in either order.
        private func hasTopic(between a: Int, _ b: Int) -> Bool {
            let (first, second) = hits[a].start <= hits[b].start ? (hits[a], hits[b]) : (hits[b], hits[a])
            for k in min(a, b)...max(a, b) where hits[k].roles.contains(.topic) {
                if hits[k].start >= first.end, hits[k].end <= second.start { return true }
            }
            return false
        }

        /// The possessive ("my", "his", "su") within two words before a relation word.
        private func possessor(of index: Int) -> Int? {
            let relation = hits[index]
            var k = index - 1
            while k >= 0, hits[k].word >= relation.word - 2 {
                if hits[k].word < relation.word, !hits[k].roles.isDisjoint(with: [.selfReference, .possessive]),
                   sameSentence(hits[k], relation) { return k }
                k -= 1
            }
            return nil
        }

        /// A capitalized Latin word, not a table word nor a common word, within six words before the
        /// term and read as a name: followed by "has"/"takes" (or, inside a sentence, "is"), part of a
        /// two-word name inside a sentence, or after a title ("Mrs Patel").
        private func namesPerson(before term: Hit) -> Bool {
            let words = text.words
            let sentence = words[term.word].sentence
            var k = term.word - 1
            while k >= 0, k >= term.word - 6, words[k].sentence == sentence {
                if isNameLike(k) {
                    let initial = k == 0 || words[k - 1].sentence != sentence
                    let next = roles(ofWord: k + 1, sentence: sentence)
                    if next.contains(.haveBe) || (!initial && next.contains(.copula)) { return true }
                    if k + 1 < term.word, isNameLike(k + 1) {
                        let afterName = roles(ofWord: k + 2, sentence: sentence)
                        if !initial || afterName.contains(.haveBe) || afterName.contains(.copula) { return true }
                    }
                    if roles(ofWord: k - 1, sentence: sentence).contains(.title) { return true }
                }
                k -= 1
            }
            return false
        }

        private static let commonWords: Lexicon = [.english, .spanish, .french, .german, .stepCue, .codeCue, .month,
                                                   .condition, .medication, .streetSuffix, .relation, .firstPerson]

        private func isNameLike(_ index: Int) -> Bool {
            guard index >= 0, index < text.words.count else { return false }
            let word = text.words[index]
            guard word.isCapitalized, word.isAlphabetic, word.length >= 2, ByteClass.isLower(text.at(word.start + 1)),
                  word.lexicon.isDisjoint(with: Self.commonWords) else { return false }
            return roles(ofWord: index, sentence: word.sentence).isEmpty
        }

        /// The table roles of one word (the hits starting at it), or none outside the sentence.
        private func roles(ofWord index: Int, sentence: Int) -> SpecialRole {
            guard index >= 0, index < text.words.count, text.words[index].sentence == sentence else { return [] }
            let word = text.words[index]
            var low = 0, high = hits.count
            while low < high {
                let mid = (low + high) / 2
                if hits[mid].start < word.start { low = mid + 1 } else { high = mid }
            }
            // The hits starting at the word itself (a run of Han text holds many more, inside it).
            var roles = SpecialRole()
            while low < hits.count, hits[low].start == word.start {
                if hits[low].word == index { roles.formUnion(hits[low].roles) }
                low += 1
            }
            return roles
        }
    }
}
