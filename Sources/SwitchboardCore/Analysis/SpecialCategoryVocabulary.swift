/// What a word means to `SpecialCategoryRecognizer`: the category of personal data it names (health and
/// the GDPR article 9 special categories), or its part in tying such a term to a person (first person,
/// relation, clinical shorthand) or in clearing it (fiction, public figures, a topic of study).
package struct SpecialRole: OptionSet, Sendable, Hashable {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    // Categories: health (bits 0–7, entity kind `.health`).
    package static let condition = SpecialRole(rawValue: 1 << 0)
    package static let medication = SpecialRole(rawValue: 1 << 1)
    package static let pregnancy = SpecialRole(rawValue: 1 << 2)
    package static let mental = SpecialRole(rawValue: 1 << 3)
    package static let hiv = SpecialRole(rawValue: 1 << 4)
    package static let disability = SpecialRole(rawValue: 1 << 5)
    package static let addiction = SpecialRole(rawValue: 1 << 6)
    /// A lab test (HbA1c, LDL, eGFR): health only with a number next to it.
    package static let lab = SpecialRole(rawValue: 1 << 7)
    // Categories: article 9 and the other special data (bits 8–16, `.specialCategory`).
    package static let orientation = SpecialRole(rawValue: 1 << 8)
    package static let gender = SpecialRole(rawValue: 1 << 9)
    package static let religion = SpecialRole(rawValue: 1 << 10)
    package static let politics = SpecialRole(rawValue: 1 << 11)
    package static let union = SpecialRole(rawValue: 1 << 12)
    package static let criminal = SpecialRole(rawValue: 1 << 13)
    package static let immigration = SpecialRole(rawValue: 1 << 14)
    package static let ethnicity = SpecialRole(rawValue: 1 << 15)
    package static let genetic = SpecialRole(rawValue: 1 << 16)
    /// "party", "union": politics or a trade union only with a membership word nearby ("member", "rep").
    package static let partyWord = SpecialRole(rawValue: 1 << 17)
    package static let unionWord = SpecialRole(rawValue: 1 << 18)
    package static let membership = SpecialRole(rawValue: 1 << 19)
    // Anchors: what ties a term to an identifiable person.
    /// First person: pronouns, possessives, first-person verb forms ("I", "my", "ich", "tengo", "我", "저는").
    package static let selfReference = SpecialRole(rawValue: 1 << 20)
    /// Third-person possessives ("his", "su", "sein"): a relation after one is a person.
    package static let possessive = SpecialRole(rawValue: 1 << 21)
    /// Family and partners ("wife", "son", "madre"): a person when a possessive comes before.
    package static let relation = SpecialRole(rawValue: 1 << 22)
    /// "he", "she", "er", "ella": a person unless the text is about a public figure or fiction.
    package static let thirdPerson = SpecialRole(rawValue: 1 << 23)
    /// "has", "is", "takes", "hat", "tiene": after a capitalized word, that word is a person's name.
    package static let haveBe = SpecialRole(rawValue: 1 << 24)
    /// "is", "was", "ist", "es": after a capitalized word inside a sentence, that word is a name (at the
    /// start of a sentence it could be any noun: "Stress is…").
    package static let copula = SpecialRole(rawValue: 1 << 37)
    /// Clinical-note shorthand ("pt", "dx", "hx", "patient", "bid"): a note is about its patient.
    package static let clinical = SpecialRole(rawValue: 1 << 25)
    /// "Mr", "Frau", "Sra": the next capitalized word is a name.
    package static let title = SpecialRole(rawValue: 1 << 26)
    // Clearing cues.
    /// "if", "can", "should", "wenn", "si": right before a pronoun, the sentence is hypothetical.
    package static let hypothetical = SpecialRole(rawValue: 1 << 27)
    /// "novel", "character", "series", "film": the text is fiction.
    package static let fiction = SpecialRole(rawValue: 1 << 28)
    /// "announced", "publicly", "president", "celebrity": a third person is a public figure.
    package static let publicFigure = SpecialRole(rawValue: 1 << 29)
    /// "about", "reading", "studying", "essay": between a pronoun and a term, the term is a topic.
    package static let topic = SpecialRole(rawValue: 1 << 30)
    /// "weeks", "Woche", "週": a count of weeks next to a pregnancy term is a self-evident statement.
    package static let week = SpecialRole(rawValue: 1 << 31)
    /// Spelled numbers ("nine", "九"), so a week count in words counts.
    package static let numberWord = SpecialRole(rawValue: 1 << 32)
    /// Set by the table builder on every proper beginning of a phrase ("end", "end my" of "end my life").
    static let phraseStart = SpecialRole(rawValue: 1 << 33)
    /// "ICD", "Dx", "diagnosis": a code shaped like ICD-10 (E11.9, F32.1) near one is a diagnosis.
    package static let codeContext = SpecialRole(rawValue: 1 << 34)
    /// "mg", "mcg", "ml", "IU": after a number, a dose; a drug-shaped word next to it is a medication.
    package static let doseUnit = SpecialRole(rawValue: 1 << 35)
    /// "我们" (we), "우리는": contains a first-person cue but speaks for people in general.
    package static let generic = SpecialRole(rawValue: 1 << 36)

    // Personal data cues (`PersonalDetails`): not special categories, but at least personal.
    /// "salary", "earn", "owe", "Gehalt", "年収": money about a person.
    package static let finance = SpecialRole(rawValue: 1 << 38)
    /// "euros", "dollars", "円", "원": a number next to one is an amount.
    package static let currency = SpecialRole(rawValue: 1 << 39)
    /// "home", "house", "zuhause", "自宅": coordinates or an IP address near one are where someone lives.
    package static let home = SpecialRole(rawValue: 1 << 40)
    /// "plate", "Kennzeichen", "matrícula": a registration follows.
    package static let plate = SpecialRole(rawValue: 1 << 41)
    /// "work at", "arbeite bei", "employer": with a name, who employs whom.
    package static let employer = SpecialRole(rawValue: 1 << 42)
    /// "school", "kindergarten", "Grundschule", "学校": with a child and a name, where a child is.
    package static let school = SpecialRole(rawValue: 1 << 43)
    /// "son", "daughter", "Sohn", "hija", "息子".
    package static let child = SpecialRole(rawValue: 1 << 44)
    /// "born", "nací", "geboren", "родился": a date near one is a date of birth.
    package static let birth = SpecialRole(rawValue: 1 << 45)
    /// Month names in the European languages (CJK dates are read by their 年/月/日 shape).
    package static let month = SpecialRole(rawValue: 1 << 46)

    /// "Been", "Diagnosed", "Started", "Just", "Recently" opening a sentence: English drops the pronoun
    /// ("Been on Zoloft for 3 years", "Diagnosed with MS last year"), so the sentence is the speaker's.
    package static let droppedSubject = SpecialRole(rawValue: 1 << 47)

    static let healthCategories: SpecialRole = [.condition, .medication, .pregnancy, .mental, .hiv, .disability, .addiction, .lab]
    static let specialCategories: SpecialRole = [.orientation, .gender, .religion, .politics, .union, .criminal, .immigration,
                                                 .ethnicity, .genetic]
    static let categories: SpecialRole = healthCategories.union(specialCategories)
    static let anchors: SpecialRole = [.selfReference, .relation, .thirdPerson, .clinical]
}

/// One language's vocabulary, as data: role and space-separated entries. An entry is an exact word
/// ("hiv"), a prefix stem ending in `*` ("diabet*": diabetes, diabetic, diabète, Diabetiker), or two words
/// joined by `_` ("trade_union", "ung_thu*"). Entries in Han or kana are matched anywhere inside a run of
/// those scripts, which are written without spaces. Words are written as people type them: the
/// normalizer drops Latin accents and lowers capitals before matching, on both sides.
package struct SpecialCategoryLanguage: Sendable {
    package var code: String
    package var entries: [(SpecialRole, String)]
    package init(code: String, entries: [(SpecialRole, String)]) { self.code = code; self.entries = entries }
}

/// The merged lookup tables of every language: exact words by hash, prefix stems by the hash of their
/// bytes, a bitmap of stems' first three bytes so most words cost one probe, and the stem lengths present.
struct SpecialVocabulary: Sendable {
    private let exactTable: WordTable
    /// Bit `key(hash)` is set for every exact word: most words of a text are in no table, and this 8 KB
    /// bitmap stays in L1 where the table (tens of KB) would not.
    private let exactBits: [UInt64]
    let prefix: WordTable
    /// Words that only count in capitals ("SI" suicidal ideation, not Spanish "si").
    let capitals: WordTable
    /// Bit `key(first three hashed bytes)` is set when some stem starts with those bytes.
    let starts: [UInt64]
    /// Bit `key(first five hashed bytes)` is set when some stem longer than five bytes starts with them,
    /// so a long word that shares only three bytes with a stem costs three lookups, not twenty.
    let longStarts: [UInt64]
    /// Bit n is set when some stem (or phrase) is n hashed bytes long (n < 64).
    let lengths: UInt64

    static let shared = SpecialVocabulary(languages: SpecialCategoryLanguage.all)

    @inline(__always) static func startKey(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: (hash >> 20) ^ hash) & 0xFFFF }

    init(languages: [SpecialCategoryLanguage]) {
        var exact: [UInt64: UInt64] = [:], prefix: [UInt64: UInt64] = [:], capitals: [UInt64: UInt64] = [:]
        var starts = [UInt64](repeating: 0, count: 1024), longStarts = [UInt64](repeating: 0, count: 1024)
        var lengths: UInt64 = 0
        for language in languages {
            for (role, list) in language.entries {
                for raw in list.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                  // A capitalized first letter the normalizer keeps (Greek with tonos: "Έχω") is its own entry.
                  for variant in Self.variants(String(raw)) {
                    var entry = variant
                    if entry.hasPrefix("^") {  // capitals only
                        capitals[Lexicon.hash(of: String(entry.dropFirst())), default: 0] |= role.rawValue
                        continue
                    }
                    let isStem = entry.hasSuffix("*") || Self.isUnspaced(entry)
                    if entry.hasSuffix("*") { entry.removeLast() }
                    let text = entry.replacingOccurrences(of: "_", with: " ")
                    let bytes = Self.hashedBytes(text)
                    let hash = bytes.reduce(Lexicon.hashSeed) { Lexicon.hash($0, $1) }
                    let parts = entry.split(separator: "_")
                    for count in parts.indices.dropLast() {
                        let beginning = Self.hashedBytes(parts[...count].joined(separator: " "))
                        exact[beginning.reduce(Lexicon.hashSeed) { Lexicon.hash($0, $1) }, default: 0] |= SpecialRole.phraseStart.rawValue
                    }
                    if isStem, bytes.count >= 3, bytes.count < 64 {
                        prefix[hash, default: 0] |= role.rawValue
                        lengths |= 1 << UInt64(bytes.count)
                        let key = Self.startKey(bytes.prefix(3).reduce(Lexicon.hashSeed) { Lexicon.hash($0, $1) })
                        starts[key >> 6] |= 1 << UInt64(key & 63)
                        if bytes.count > 5 {
                            let long = Self.startKey(bytes.prefix(5).reduce(Lexicon.hashSeed) { Lexicon.hash($0, $1) })
                            longStarts[long >> 6] |= 1 << UInt64(long & 63)
                        }
                    } else {
                        exact[hash, default: 0] |= role.rawValue
                    }
                  }
                }
            }
        }
        var exactBits = [UInt64](repeating: 0, count: 1024)
        for key in exact.keys {
            let bit = Self.startKey(key)
            exactBits[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        self.exactTable = WordTable(exact); self.exactBits = exactBits; self.prefix = WordTable(prefix); self.capitals = WordTable(capitals)
        self.starts = starts; self.longStarts = longStarts; self.lengths = lengths
    }

    /// The entry, and the entry with its first letter capitalized when normalization keeps that capital.
    static func variants(_ entry: String) -> [String] {
        guard let first = entry.first, first.isLowercase, !first.isASCII else { return [entry] }
        let capitalized = first.uppercased() + entry.dropFirst()
        return hashedBytes(capitalized) == hashedBytes(entry) ? [entry] : [entry, capitalized]
    }

    /// The bytes the scanner hashes for `text`: normalized, ASCII lowercased, apostrophes left out.
    static func hashedBytes(_ text: String) -> [UInt8] {
        NormalizedText(text).bytes.compactMap { $0 == 0x27 ? nil : (ByteClass.isUpper($0) ? $0 | 0x20 : $0) }
    }

    /// Han and kana are written without spaces: their entries are found anywhere in a run.
    static func isUnspaced(_ entry: String) -> Bool {
        guard let scalar = entry.unicodeScalars.first else { return false }
        return (0x3040...0x9FFF).contains(scalar.value)
    }

    /// The roles of an exact word (or phrase) by its hash.
    @inline(__always) func exact(_ hash: UInt64) -> UInt64 {
        let bit = Self.startKey(hash)
        guard exactBits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return 0 }
        return exactTable.value(for: hash)
    }

    @inline(__always) func mayStart(_ hash: UInt64) -> Bool {
        let key = Self.startKey(hash)
        return starts[key >> 6] & (1 << UInt64(key & 63)) != 0
    }

    @inline(__always) func mayContinue(_ hash: UInt64) -> Bool {
        let key = Self.startKey(hash)
        return longStarts[key >> 6] & (1 << UInt64(key & 63)) != 0
    }
}
