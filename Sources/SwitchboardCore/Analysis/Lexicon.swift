/// What a word can mean to the recognizers. Words are looked up by a 64-bit hash of their lowercased
/// bytes (apostrophes dropped), so a lookup allocates nothing.
public struct Lexicon: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let firstPerson = Lexicon(rawValue: 1 << 0)
    public static let thirdPerson = Lexicon(rawValue: 1 << 1)
    public static let possessive = Lexicon(rawValue: 1 << 2)
    public static let relation = Lexicon(rawValue: 1 << 3)
    public static let condition = Lexicon(rawValue: 1 << 4)
    public static let medication = Lexicon(rawValue: 1 << 5)
    public static let healthVerb = Lexicon(rawValue: 1 << 6)
    public static let healthStrong = Lexicon(rawValue: 1 << 7)
    public static let healthModifier = Lexicon(rawValue: 1 << 8)
    public static let ssnContext = Lexicon(rawValue: 1 << 9)
    public static let passport = Lexicon(rawValue: 1 << 10)
    public static let password = Lexicon(rawValue: 1 << 11)
    public static let secretNoun = Lexicon(rawValue: 1 << 12)
    public static let secretQualifier = Lexicon(rawValue: 1 << 13)
    public static let phoneContext = Lexicon(rawValue: 1 << 14)
    public static let cardContext = Lexicon(rawValue: 1 << 15)
    public static let streetSuffix = Lexicon(rawValue: 1 << 16)
    public static let streetSuffixShort = Lexicon(rawValue: 1 << 17)
    public static let birthCue = Lexicon(rawValue: 1 << 18)
    public static let month = Lexicon(rawValue: 1 << 19)
    public static let personalNoun = Lexicon(rawValue: 1 << 20)
    public static let notAValue = Lexicon(rawValue: 1 << 21)
    public static let english = Lexicon(rawValue: 1 << 22)
    public static let spanish = Lexicon(rawValue: 1 << 23)
    public static let french = Lexicon(rawValue: 1 << 24)
    public static let german = Lexicon(rawValue: 1 << 25)
    public static let stepCue = Lexicon(rawValue: 1 << 26)
    public static let codeCue = Lexicon(rawValue: 1 << 27)
    public static let copula = Lexicon(rawValue: 1 << 28)
    public static let livePlace = Lexicon(rawValue: 1 << 29)
    /// Personal nouns that, stated ("my name is", "my address:"), make a request personal.
    public static let identityNoun = Lexicon(rawValue: 1 << 30)
    /// "pass", "pw", "pwd": a password only when assigned a password-shaped value.
    public static let passwordWeak = Lexicon(rawValue: 1 << 31)
    /// Tools whose `-p` flag takes a password (`mysql -pX`, `sshpass -p X`).
    public static let passwordFlagTool = Lexicon(rawValue: 1 << 32)
    /// Tools whose `-u user:password` carries credentials (`curl`).
    public static let userFlagTool = Lexicon(rawValue: 1 << 33)
    /// Words that name an account rather than a secret ("for user42").
    public static let accountNoun = Lexicon(rawValue: 1 << 34)
    /// Medical tests and their results ("my biopsy came back malignant").
    public static let testNoun = Lexicon(rawValue: 1 << 35)
    public static let testResult = Lexicon(rawValue: 1 << 36)
    /// Past-tense verbs that report a result ("came back", "was") rather than ask about one.
    public static let pastResult = Lexicon(rawValue: 1 << 37)

    static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325
    @inline(__always) static func hash(_ h: UInt64, _ byte: UInt8) -> UInt64 { (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }

    /// Hash of the word as the scanner sees it: normalized (accents dropped, capitals lowered), ASCII
    /// lowercased, apostrophes left out.
    public static func hash(of word: String) -> UInt64 {
        var h = hashSeed
        for byte in NormalizedText(word).bytes where byte != 0x27 { h = hash(h, ByteClass.isUpper(byte) ? byte | 0x20 : byte) }
        return h
    }

    public static func flags(of word: String) -> Lexicon { flags(forHash: hash(of: word)) }

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
