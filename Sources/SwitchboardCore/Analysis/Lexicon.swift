/// What a word can mean to the recognizers. Words are looked up by a 64-bit hash of their lowercased
/// bytes (apostrophes dropped), so a lookup allocates nothing.
package struct Lexicon: OptionSet, Sendable, Hashable {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    package static let firstPerson = Lexicon(rawValue: 1 << 0)
    package static let thirdPerson = Lexicon(rawValue: 1 << 1)
    package static let possessive = Lexicon(rawValue: 1 << 2)
    package static let relation = Lexicon(rawValue: 1 << 3)
    package static let condition = Lexicon(rawValue: 1 << 4)
    package static let medication = Lexicon(rawValue: 1 << 5)
    package static let healthVerb = Lexicon(rawValue: 1 << 6)
    package static let healthStrong = Lexicon(rawValue: 1 << 7)
    package static let healthModifier = Lexicon(rawValue: 1 << 8)
    package static let ssnContext = Lexicon(rawValue: 1 << 9)
    package static let passport = Lexicon(rawValue: 1 << 10)
    package static let password = Lexicon(rawValue: 1 << 11)
    package static let secretNoun = Lexicon(rawValue: 1 << 12)
    package static let secretQualifier = Lexicon(rawValue: 1 << 13)
    package static let phoneContext = Lexicon(rawValue: 1 << 14)
    package static let cardContext = Lexicon(rawValue: 1 << 15)
    package static let streetSuffix = Lexicon(rawValue: 1 << 16)
    package static let streetSuffixShort = Lexicon(rawValue: 1 << 17)
    package static let birthCue = Lexicon(rawValue: 1 << 18)
    package static let month = Lexicon(rawValue: 1 << 19)
    package static let personalNoun = Lexicon(rawValue: 1 << 20)
    package static let notAValue = Lexicon(rawValue: 1 << 21)
    package static let english = Lexicon(rawValue: 1 << 22)
    package static let spanish = Lexicon(rawValue: 1 << 23)
    package static let french = Lexicon(rawValue: 1 << 24)
    package static let german = Lexicon(rawValue: 1 << 25)
    package static let stepCue = Lexicon(rawValue: 1 << 26)
    package static let codeCue = Lexicon(rawValue: 1 << 27)
    package static let copula = Lexicon(rawValue: 1 << 28)
    package static let livePlace = Lexicon(rawValue: 1 << 29)
    /// Personal nouns that, stated ("my name is", "my address:"), make a request personal.
    package static let identityNoun = Lexicon(rawValue: 1 << 30)
    /// "pass", "pw", "pwd": a password only when assigned a password-shaped value.
    package static let passwordWeak = Lexicon(rawValue: 1 << 31)
    /// Tools whose `-p` flag takes a password (`mysql -pX`, `sshpass -p X`).
    package static let passwordFlagTool = Lexicon(rawValue: 1 << 32)
    /// Tools whose `-u user:password` carries credentials (`curl`).
    package static let userFlagTool = Lexicon(rawValue: 1 << 33)
    /// Words that name an account rather than a secret ("for user42").
    package static let accountNoun = Lexicon(rawValue: 1 << 34)
    /// Medical tests and their results ("my biopsy came back malignant").
    package static let testNoun = Lexicon(rawValue: 1 << 35)
    package static let testResult = Lexicon(rawValue: 1 << 36)
    /// Past-tense verbs that report a result ("came back", "was") rather than ask about one.
    package static let pastResult = Lexicon(rawValue: 1 << 37)

    static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325
    @inline(__always) static func hash(_ h: UInt64, _ byte: UInt8) -> UInt64 { (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }

    /// Hash of the word as the scanner sees it: normalized (accents dropped, capitals lowered), ASCII
    /// lowercased, apostrophes left out.
    package static func hash(of word: String) -> UInt64 {
        var h = hashSeed
        for byte in NormalizedText(word).bytes where byte != 0x27 { h = hash(h, ByteClass.isUpper(byte) ? byte | 0x20 : byte) }
        return h
    }

    package static func flags(of word: String) -> Lexicon { flags(forHash: hash(of: word)) }

    @inline(__always) static func flags(forHash hash: UInt64) -> Lexicon { Lexicon(rawValue: table.value(for: hash)) }

    /// The word table itself, for a scan that looks up every word (one `swift_once` check per text).
    static var wordTable: WordTable { table }

    private static let table: WordTable = {
        var merged: [UInt64: UInt64] = [:]
        for (flag, words) in wordLists + HealthLanguage.all.flatMap(\.words) {
            for word in words.split(whereSeparator: { $0 == " " || $0 == "\n" }) { merged[hash(of: String(word)), default: 0] |= flag.rawValue }
        }
        return WordTable(merged)
    }()
}

/// Open addressing over the (already well mixed) FNV hashes: a lookup is a mask and a probe or two,
/// cheaper than `Dictionary`'s seeded hashing on the analyzer's hot path.
struct WordTable: Sendable {
    private var keys: [UInt64]
    private var values: [UInt64]
    private let mask: Int

    init(_ entries: [UInt64: UInt64]) {
        var capacity = 16
        while capacity < entries.count * 4 { capacity *= 2 }
        keys = Array(repeating: 0, count: capacity)
        values = Array(repeating: 0, count: capacity)
        mask = capacity - 1
        for (key, value) in entries where key != 0 {
            var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = value
        }
    }

    @inline(__always)
    func value(for key: UInt64) -> UInt64 {
        var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
        while true {
            let found = keys[slot]
            if found == key { return values[slot] }
            if found == 0 { return 0 }
            slot = (slot + 1) & mask
        }
    }
}
