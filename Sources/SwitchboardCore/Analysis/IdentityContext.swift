/// The words around an identity-number candidate: each scheme's own names (in its languages), generic
/// identity words that raise any scheme a little, and unrelated-number words ("order", "invoice",
/// "tracking", "ISBN") that lower it. Built once from `IdentityScheme.all`.
struct IdentityContext: Sendable {
    struct Found {
        /// Bit i: a word naming `IdentityScheme.all[i]` is near.
        var schemes: UInt64 = 0
        var generic = false
        var unrelated = false
    }

    static let shared = IdentityContext()

    /// Scheme indices by compact length.
    private let byLength: [[Int]]
    /// Bit n: some scheme has compact length n.
    let lengths: UInt32
    /// Word hash → mask of the schemes it names.
    private let words: WordTable
    /// Names in scripts written without spaces (Chinese, Japanese, Korean), found by substring.
    private let unspaced: [(bytes: [UInt8], schemes: UInt64)]
    private let generic: WordSet
    private let unrelated: WordSet

    static let genericWords = """
        id ids identity identification identifier national number no nr num numero nummer numer номер tax taxpayer \
        personal social security insurance citizen document registration kimlik identidade identidad identite ausweis \
        fiscal nacional nationale nazionale pessoal identita personale idnummer личности паспорт
        """
    static let unrelatedWords = """
        order orders invoice tracking track shipment parcel package isbn issn sku serial ref reference ticket model \
        version build commit hash phone tel telephone fax mobile call ext zip postcode price total page flight booking \
        confirmation part item product barcode ean upc lot batch pedido bestellung commande factura rechnung facture \
        population transaction receipt timestamp meeting
        """

    init() {
        precondition(IdentityScheme.all.count <= 64, "context masks hold 64 schemes")
        var byLength = [[Int]](repeating: [], count: 21)
        var words: [UInt64: UInt64] = [:]
        var unspaced: [(bytes: [UInt8], schemes: UInt64)] = []
        for (index, scheme) in IdentityScheme.all.enumerated() {
            for length in scheme.lengths where length < byLength.count { byLength[length].append(index) }
            let bit = UInt64(1) << UInt64(index)
            for word in scheme.context {
                if let lead = word.utf8.first, lead >= 0xE3, lead <= 0xED {
                    unspaced.append((Array(word.utf8), bit))
                } else {
                    words[Lexicon.hash(of: word), default: 0] |= bit
                }
            }
        }
        self.byLength = byLength
        lengths = byLength.indices.filter { !byLength[$0].isEmpty }.reduce(UInt32(0)) { $0 | 1 << UInt32($1) }
        self.words = WordTable(words)
        self.unspaced = unspaced
        generic = WordSet(Self.genericWords)
        unrelated = WordSet(Self.unrelatedWords)
    }

    func schemes(ofLength length: Int) -> [Int] { length < byLength.count ? byLength[length] : [] }

    /// Ten words before the candidate and six after; for unspaced scripts, 60 bytes before and 30 after.
    func context(_ text: TextScan, around range: Range<Int>) -> Found {
        var found = Found()
        let words = text.words
        let first = text.wordIndex(atOrAfter: range.lowerBound)
        var k = first - 1
        while k >= 0, k >= first - 10 { add(words[k].hash, to: &found); k -= 1 }
        k = text.wordIndex(atOrAfter: range.upperBound)
        let stop = k + 6
        while k < words.count, k < stop { add(words[k].hash, to: &found); k += 1 }
        if text.scripts.han + text.scripts.kana + text.scripts.hangul > 0 {
            let lower = max(0, range.lowerBound - 60), upper = min(text.bytes.count, range.upperBound + 30)
            for (name, schemes) in unspaced where contains(text.bytes, name, in: lower..<upper) { found.schemes |= schemes }
        }
        return found
    }

    /// An unrelated-number word ("order", "tracking", "invoice") among the six words before `offset`.
    func hasUnrelatedWord(_ text: TextScan, before offset: Int) -> Bool {
        let index = text.wordIndex(atOrAfter: offset)
        for k in max(0, index - 6)..<index where unrelated.contains(text.words[k].hash) { return true }
        return false
    }

    private func add(_ hash: UInt64, to found: inout Found) {
        found.schemes |= words.value(for: hash)
        if generic.contains(hash) { found.generic = true }
        if unrelated.contains(hash) { found.unrelated = true }
    }

    private func contains(_ bytes: [UInt8], _ needle: [UInt8], in range: Range<Int>) -> Bool {
        guard needle.count <= range.count else { return false }
        var i = range.lowerBound
        while i + needle.count <= range.upperBound {
            if bytes[i] == needle[0], bytes[i..<i + needle.count].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
