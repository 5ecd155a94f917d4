/// A set of words by their scanner hash (`Lexicon.hash(of:)`), over `WordTable`'s open addressing: a
/// lookup is a mask and a probe or two, with none of `Set`'s seeded hashing (these lookups run once per
/// word of every request).
struct WordSet: Sendable {
    private let table: WordTable

    /// `words`: space- or newline-separated.
    init(_ words: String) {
        var entries: [UInt64: UInt64] = [:]
        for word in words.split(whereSeparator: { $0 == " " || $0 == "\n" }) { entries[Lexicon.hash(of: String(word))] = 1 }
        table = WordTable(entries)
    }

    @inline(__always) func contains(_ hash: UInt64) -> Bool { table.value(for: hash) != 0 }
}
