/// Why a semantic cache hit was refused although the two prompts' embeddings were close.
public enum SemanticRefusal: String, Sendable, Hashable, CaseIterable, Codable {
    /// One prompt negates what the other asks ("safe" / "not safe", "enable" / "disable").
    case negation
    /// The prompts carry different numbers ("15 % of 80" / "15 % of 90").
    case number
    /// The prompts name different people, places, products or quoted things.
    case entity
}

/// The check a semantic cache runs before it serves a stored answer to a differently worded prompt.
///
/// Why it exists: sentence embeddings put "Which foods are safe for cats?" and "Which foods are not safe
/// for cats?" close together (they share every content word), and serving one's answer to the other is
/// worse than no cache. The differences that flip an answer while barely moving an embedding are few and
/// visible on the surface: a negation, a number, a name. So the guard compares exactly those, and refuses
/// when they differ; everything else is the similarity threshold's job.
package enum SemanticGuard {
    /// The first reason to refuse serving `cached`'s answer for `candidate`, or nil.
    package static func refusal(cached: String, candidate: String) -> SemanticRefusal? {
        let a = Surface(cached), b = Surface(candidate)
        if a.negations != b.negations || a.polarity(against: b) { return .negation }
        if a.numbers != b.numbers { return .number }
        if a.entities != b.entities { return .entity }
        return nil
    }

    /// The parts of a prompt the guard compares.
    struct Surface {
        var words: [String] = []
        /// Negation markers counted modulo 2: "not ... not" is a double negation.
        var negations = false
        var numbers: Set<String> = []
        var entities: Set<String> = []

        init(_ text: String) {
            var sentenceStart = true
            var quoted = false
            var quote = ""
            for token in Self.tokens(text) {
                switch token {
                case .quote:
                    if quoted, !quote.isEmpty { entities.insert("\"" + quote.lowercased()) }
                    quoted.toggle(); quote = ""
                case .boundary:
                    sentenceStart = true
                case .word(let raw):
                    if quoted { quote += quote.isEmpty ? raw : " " + raw }
                    var word = raw.lowercased()
                    for suffix in ["'s", "’s"] where word.hasSuffix(suffix) { word.removeLast(2) }
                    if let number = Self.number(word) {
                        numbers.insert(number)
                    } else if word.hasSuffix("n't") || word.hasSuffix("n’t") || SemanticGuard.negationWords.contains(word) {
                        negations.toggle()
                        if word == "cannot" || word.hasSuffix("n't") || word.hasSuffix("n’t") { words.append(String(word.dropLast(3))) }
                    } else {
                        words.append(word)
                        if !sentenceStart, Self.isName(raw) { entities.insert(word) }
                        if Self.isAcronym(raw) { entities.insert(word) }
                    }
                    sentenceStart = false
                }
            }
        }

        /// True when a word of one prompt is the negated form or the antonym of a word of the other.
        func polarity(against other: Surface) -> Bool {
            let mine = Set(words), theirs = Set(other.words)
            let onlyMine = mine.subtracting(theirs), onlyTheirs = theirs.subtracting(mine)
            guard !onlyMine.isEmpty, !onlyTheirs.isEmpty else { return false }
            for word in onlyMine {
                for other in onlyTheirs {
                    if SemanticGuard.antonyms.contains(Pair(word, other)) { return true }
                    if SemanticGuard.negatedForm(word, other) { return true }
                }
            }
            return false
        }

        enum Token { case word(String), boundary, quote }

        static func tokens(_ text: String) -> [Token] {
            var tokens: [Token] = []
            var current = ""
            func flush() { if !current.isEmpty { tokens.append(.word(current)); current = "" } }
            var previous: Character = " "
            for character in text {
                if character.isLetter || character.isNumber || ((character == "'" || character == "’") && previous.isLetter)
                    || ((character == "." || character == ",") && previous.isNumber) {
                    current.append(character)
                } else {
                    // A dot or comma that ended up last in a number ("in 2014.") is punctuation.
                    while let last = current.last, last == "." || last == "," { current.removeLast() }
                    flush()
                    if character == "\"" || character == "“" || character == "”" || character == "«" || character == "»" {
                        tokens.append(.quote)
                    } else if ".!?:;\n".contains(character) {
                        tokens.append(.boundary)
                    }
                }
                previous = character
            }
            while let last = current.last, last == "." || last == "," { current.removeLast() }
            flush()
            return tokens
        }

        /// Digits in any script ("١٢" and "12" are one number), ordinals ("12th"), and number words.
        static func number(_ word: String) -> String? {
            var digits = ""
            var sawDigit = false
            for scalar in word.unicodeScalars {
                if let value = scalar.properties.numericType == .decimal ? scalar.properties.numericValue : nil {
                    digits += String(Int(value)); sawDigit = true
                } else if scalar == "." {
                    digits += "."
                } else if scalar == "," {
                    continue   // "1,000" and "1000" are one number
                } else if sawDigit {
                    // "12th", "3rd", "10k": the suffix belongs to the number.
                    digits += String(scalar)
                } else {
                    return SemanticGuard.numberWords[word]
                }
            }
            guard sawDigit else { return nil }
            for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits.removeLast(2) }
            return digits
        }

        static func isName(_ raw: String) -> Bool {
            guard let first = raw.first, first.isUppercase, raw != "I" else { return false }
            return !SemanticGuard.capitalizedCommonWords.contains(raw.lowercased())
        }

        static func isAcronym(_ raw: String) -> Bool {
            raw.count >= 2 && raw.allSatisfy { $0.isUppercase || $0.isNumber } && raw.contains { $0.isLetter }
        }
    }

    struct Pair: Hashable {
        let a: String, b: String
        init(_ x: String, _ y: String) { (a, b) = x < y ? (x, y) : (y, x) }
    }

    /// "safe" / "unsafe", "able" / "disable", "legal" / "illegal": one word is the other with a negating prefix.
    static func negatedForm(_ x: String, _ y: String) -> Bool {
        for prefix in ["un", "dis", "in", "im", "il", "ir", "non", "non-", "anti"] {
            // A stem of three letters or more: "unit" is not "un" + "it".
            if x.count >= 3, y == prefix + x { return true }
            if y.count >= 3, x == prefix + y { return true }
        }
        // "enable" / "disable", "include" / "exclude": the same stem behind opposite prefixes.
        for (p, q) in [("en", "dis"), ("in", "ex"), ("im", "ex"), ("pro", "anti"), ("over", "under"), ("up", "down")] {
            if x.hasPrefix(p), y.hasPrefix(q), x.dropFirst(p.count) == y.dropFirst(q.count), x.count > p.count + 2 { return true }
            if y.hasPrefix(p), x.hasPrefix(q), y.dropFirst(p.count) == x.dropFirst(q.count), y.count > p.count + 2 { return true }
        }
        return false
    }

    /// Words that negate what follows, in the languages of the analyzer's health table.
    static let negationWords: Set<String> = [
        "not", "no", "never", "without", "none", "nobody", "nothing", "neither", "nor", "cannot", "nowhere",
        "nicht", "kein", "keine", "keinen", "nie", "niemals", "ohne",            // German
        "pas", "jamais", "sans", "aucun", "aucune", "ne",                         // French
        "nunca", "sin", "ningún", "ninguna", "tampoco",                           // Spanish
        "não", "nao", "sem", "nenhum", "nenhuma",                                 // Portuguese
        "non", "mai", "senza", "nessun", "nessuno", "nessuna",                    // Italian
        "niet", "geen", "nooit", "zonder",                                        // Dutch
        "nie", "bez", "żaden", "nigdy",                                           // Polish
        "не", "нет", "никогда", "без",                                            // Russian
        "değil", "yok", "asla",                                                   // Turkish
        "不", "没", "沒", "没有", "別", "别", "无", "無", "非",                      // Chinese
        "ない", "ません", "없다", "않다", "안",                                      // Japanese, Korean
        "لا", "ليس", "لم", "لن", "بدون",                                          // Arabic
        "नहीं", "ना", "बिना",                                                      // Hindi
    ]

    /// Opposites that no prefix rule finds.
    static let antonyms: Set<Pair> = {
        let pairs = [
            ("on", "off"), ("good", "bad"), ("true", "false"), ("safe", "dangerous"), ("allow", "forbid"),
            ("allowed", "forbidden"), ("start", "stop"), ("open", "close"), ("before", "after"), ("more", "less"),
            ("most", "least"), ("best", "worst"), ("better", "worse"), ("increase", "decrease"), ("add", "remove"),
            ("buy", "sell"), ("hot", "cold"), ("up", "down"), ("always", "never"), ("all", "none"), ("with", "without"),
            ("yes", "no"), ("win", "lose"), ("accept", "reject"), ("pros", "cons"), ("include", "avoid"),
            ("including", "avoiding"), ("high", "low"), ("higher", "lower"), ("fast", "slow"), ("faster", "slower"),
            ("cheap", "expensive"), ("easy", "hard"), ("easiest", "hardest"), ("legal", "banned"), ("healthy", "unhealthy"),
            ("love", "hate"), ("like", "dislike"), ("first", "last"), ("maximum", "minimum"), ("max", "min"),
            ("import", "export"), ("inside", "outside"), ("above", "below"), ("over", "under"), ("push", "pull"),
            ("enable", "disable"), ("show", "hide"), ("install", "uninstall"), ("connect", "disconnect"),
            ("encrypt", "decrypt"), ("lock", "unlock"), ("login", "logout"), ("upload", "download"), ("arrive", "depart"),
            ("arrival", "departure"), ("early", "late"), ("earlier", "later"), ("light", "dark"), ("wet", "dry"),
            ("gain", "lose"), ("profit", "loss"), ("rich", "poor"), ("strong", "weak"), ("young", "old"),
        ]
        return Set(pairs.map { Pair($0.0, $0.1) })
    }()

    static let numberWords: [String: String] = {
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                     "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
        let ordinals = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                        "eleventh", "twelfth"]
        var table: [String: String] = [:]
        for (value, word) in words.enumerated() { table[word] = String(value) }
        for (value, word) in ordinals.enumerated() where value > 1 { table[word] = String(value) }
        for (word, value) in [("thirty", 30), ("forty", 40), ("fifty", 50), ("sixty", 60), ("seventy", 70), ("eighty", 80),
                              ("ninety", 90), ("hundred", 100), ("thousand", 1000), ("million", 1_000_000), ("dozen", 12),
                              ("half", -2), ("double", -3), ("twice", -3), ("triple", -4)] {
            table[word] = String(value)
        }
        return table
    }()

    /// Capitalized inside a sentence without being a name (titles of things people ask about).
    static let capitalizedCommonWords: Set<String> = [
        "i'm", "i've", "i'd", "i'll", "ok", "please", "thanks", "mr", "mrs", "ms", "dr",
    ]
}
