/// Shapes of clinical writing that no word list holds: ICD-10 codes next to a diagnosis cue ("Dx: F32.1"),
/// a dose next to a drug-shaped word ("40mg atorvastatin", "Venlafaxin 150 mg": the international
/// nonproprietary name stems), age-and-sex shorthand ("67F", "54yo") and slash abbreviations ("s/p",
/// "c/o", "w/"). They become hits the anchor rules read like any table word.
enum ClinicalShapes {
    /// Endings of international nonproprietary drug names (WHO stems), lowercase ASCII.
    static let drugSuffixes: [[UInt8]] = [
        "pril", "sartan", "olol", "alol", "statin", "formin", "gliptin", "gliflozin", "glutide", "oxetine", "xetine", "aline",
        "pram", "azepam", "zolam", "apine", "idone", "peridol", "triptan", "prazole", "tidine", "cillin", "mycin", "floxacin",
        "cycline", "conazole", "navir", "tegravir", "buvir", "ciclovir", "mab", "tinib", "parin", "xaban", "dipine", "thiazide",
        "semide", "afil", "lukast", "olone", "asone", "isone", "codone", "orphine", "adone", "trexone", "dopa", "thyroxine",
        "barbital", "profen", "coxib", "triptyline", "ipramine", "azine", "fenac", "faxine", "faxin", "mazine", "setron",
    ].map { Array($0.utf8) }

    static func scan(_ text: TextScan, _ v: SpecialVocabulary, hits: inout [SpecialCategoryRecognizer.Hit], all: inout SpecialRole) {
        let words = text.words, bytes = text.bytes
        let codes = all.contains(.codeContext)
        for index in words.indices where words[index].digits > 0 {
            let word = words[index]
            if codes, let end = icdCodeEnd(text, index) {
                hits.append(.init(start: word.start, end: end, word: index, roles: .condition)); all.insert(.condition)
            }
            if word.digits <= 3, word.letters >= 1, word.letters <= 3, ByteClass.isDigit(bytes[word.start]), isAgeSex(bytes, word) {
                hits.append(.init(start: word.start, end: word.end, word: index, roles: .clinical)); all.insert(.clinical)
            }
            if isDose(text, index, v), let drug = drugShapedWord(text, near: index) {
                hits.append(.init(start: words[drug].start, end: words[drug].end, word: drug, roles: .medication))
                all.insert(.medication)
            }
        }
        var i = 1
        while i + 1 < bytes.count {
            if bytes[i] == 0x2F, let found = slashAbbreviation(text, at: i) {
                let wordIndex = min(text.wordIndex(atOrAfter: found.lowerBound), words.count - 1)
                hits.append(.init(start: found.lowerBound, end: found.upperBound, word: wordIndex, roles: .clinical))
                all.insert(.clinical)
            }
            i += 1
        }
    }

    /// "E11", "F32.1", "J45.909", "Z21": a capital (not U), two digits, optionally a dot and one to four
    /// letters or digits. Returns where the code ends.
    private static func icdCodeEnd(_ text: TextScan, _ index: Int) -> Int? {
        let word = text.words[index]
        let b = text.bytes
        guard word.length == 3, ByteClass.isUpper(b[word.start]), b[word.start] != 0x55,
              ByteClass.isDigit(b[word.start + 1]), ByteClass.isDigit(b[word.start + 2]) || ByteClass.isUpper(b[word.start + 2])
        else { return nil }
        if text.at(word.end) == 0x2E, index + 1 < text.words.count {
            let next = text.words[index + 1]
            if next.start == word.end + 1, next.length <= 4 { return next.end }
        }
        return word.end
    }

    /// "67F", "54yo", "72M", "45yof": digits then f, m, yo, yof or yom.
    private static func isAgeSex(_ b: [UInt8], _ word: TextScan.Word) -> Bool {
        var i = word.start
        while i < word.end, ByteClass.isDigit(b[i]) { i += 1 }
        let letters = b[i..<word.end].map { $0 | 0x20 }
        return letters == [0x66] || letters == [0x6D] || letters == [0x79, 0x6F] || letters == [0x79, 0x6F, 0x66]
            || letters == [0x79, 0x6F, 0x6D]
    }

    /// A number followed by a dose unit, attached ("40mg") or as the next word ("150 mg").
    private static func isDose(_ text: TextScan, _ index: Int, _ v: SpecialVocabulary) -> Bool {
        let word = text.words[index]
        let b = text.bytes
        guard ByteClass.isDigit(b[word.start]) else { return false }
        if word.letters > 0 {
            var i = word.start
            while i < word.end, ByteClass.isDigit(b[i]) || b[i] == 0x2C { i += 1 }
            var hash = Lexicon.hashSeed
            for k in i..<word.end { hash = Lexicon.hash(hash, ByteClass.isUpper(b[k]) ? b[k] | 0x20 : b[k]) }
            return SpecialRole(rawValue: v.exact(hash)).contains(.doseUnit)
        }
        guard index + 1 < text.words.count else { return false }
        let next = text.words[index + 1]
        return next.start - word.end <= 2 && SpecialRole(rawValue: v.exact(next.hash)).contains(.doseUnit)
    }

    /// A word of six letters or more ending like a drug name, within three words of the dose.
    private static func drugShapedWord(_ text: TextScan, near index: Int) -> Int? {
        let words = text.words
        let sentence = words[index].sentence
        for k in max(0, index - 3)...min(words.count - 1, index + 3) where k != index && words[k].sentence == sentence {
            let word = words[k]
            guard word.isAlphabetic, word.letters >= 6, word.length == word.letters else { continue }
            for suffix in drugSuffixes where suffix.count < word.length {
                var matches = true
                for (offset, byte) in suffix.enumerated() where text.bytes[word.end - suffix.count + offset] | 0x20 != byte {
                    matches = false; break
                }
                if matches { return k }
            }
        }
        return nil
    }

    /// "s/p", "c/o", "h/o", "y/o", "r/o", "w/": clinical shorthand around a slash at `i`.
    private static func slashAbbreviation(_ text: TextScan, at i: Int) -> Range<Int>? {
        let before = text.at(i - 1) | 0x20, after = text.at(i + 1) | 0x20
        guard ByteClass.isASCIILetter(text.at(i - 1)), !ByteClass.isASCIIAlphanumeric(text.at(i - 2)) else { return nil }
        if before == 0x77, text.at(i + 1) == 0x20 { return (i - 1)..<(i + 1) }  // "w/ hx HTN"
        guard ByteClass.isASCIILetter(text.at(i + 1)), !ByteClass.isASCIIAlphanumeric(text.at(i + 2)) else { return nil }
        switch (before, after) {
        case (0x73, 0x70), (0x63, 0x6F), (0x68, 0x6F), (0x79, 0x6F), (0x72, 0x6F): return (i - 1)..<(i + 2)
        default: return nil
        }
    }
}
