/// One text's normalized UTF-8 bytes (`NormalizedText`) split into words, the shared input of every
/// recognizer. Words are runs of ASCII letters and digits, apostrophes inside them and non-ASCII
/// letters; each carries the lexicon flags of its lowercased form and the sentence it belongs to.
package struct TextScan: Sendable {
    package struct Word: Sendable, Hashable {
        // 32-bit storage (texts are at most a few megabytes): 40 bytes a word instead of 64, so a 4 MB text
        // of one-letter words stays well under the analyzer's memory bound.
        private var start32: Int32, end32: Int32, sentence32: Int32, letters32: Int32, digits32: Int32
        package var lexicon: Lexicon
        /// Hash of the lowercased word without apostrophes (`Lexicon.hash(of:)`).
        package var hash: UInt64
        /// First byte is an ASCII capital.
        package var isCapitalized: Bool

        package init(start: Int, end: Int, lexicon: Lexicon, hash: UInt64, sentence: Int, letters: Int, digits: Int, isCapitalized: Bool) {
            start32 = Int32(clamping: start); end32 = Int32(clamping: end); sentence32 = Int32(clamping: sentence)
            letters32 = Int32(clamping: letters); digits32 = Int32(clamping: digits)
            self.lexicon = lexicon; self.hash = hash; self.isCapitalized = isCapitalized
        }

        package var start: Int { get { Int(start32) } set { start32 = Int32(clamping: newValue) } }
        package var end: Int { get { Int(end32) } set { end32 = Int32(clamping: newValue) } }
        package var sentence: Int { get { Int(sentence32) } set { sentence32 = Int32(clamping: newValue) } }
        package var letters: Int { get { Int(letters32) } set { letters32 = Int32(clamping: newValue) } }
        package var digits: Int { get { Int(digits32) } set { digits32 = Int32(clamping: newValue) } }
        package var length: Int { end - start }
        package var isNumber: Bool { letters == 0 && digits > 0 }
        package var isAlphabetic: Bool { digits == 0 && letters > 0 }
    }

    /// The normalized bytes (`normalized.bytes`); finding ranges index these.
    package let bytes: [UInt8]
    /// The normalized view, with the map back to the user's offsets.
    package let normalized: NormalizedText
    package private(set) var words: [Word] = []
    /// Bytes of the four non-Latin scripts the language guess knows, counted by character.
    package private(set) var scripts = ScriptCounts()
    /// Every word's lexicon flags together, so a recognizer can skip a text with none of its cue words.
    package private(set) var allFlags: Lexicon = []
    /// ASCII digits in the text (numbers, IBANs and keys need some).
    package private(set) var digitCount = 0

    package init(_ text: String) { self.init(NormalizedText(text)) }

    package init(_ normalized: NormalizedText) {
        self.normalized = normalized
        bytes = normalized.bytes
        // At most one word per two bytes: reserving that once avoids the doubling copies of a growing array
        // (untouched capacity costs no memory).
        words.reserveCapacity(bytes.count / 2 + 1)
        tokenize()
    }

    /// The byte at `index`, or 0 outside the text (so scanners never trap at the edges).
    @inline(__always)
    package func at(_ index: Int) -> UInt8 { index >= 0 && index < bytes.count ? bytes[index] : 0 }

    /// Index of the first word starting at or after `offset`.
    package func wordIndex(atOrAfter offset: Int) -> Int {
        var low = 0, high = words.count
        while low < high {
            let mid = (low + high) / 2
            if words[mid].start < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Whether a word with any of `flags` is among the `count` words before `index`, in the same sentence.
    package func hasWord(_ flags: Lexicon, before index: Int, within count: Int) -> Bool {
        guard index > 0, index <= words.count else { return false }
        let sentence = index < words.count ? words[index].sentence : words[index - 1].sentence
        var i = index - 1
        while i >= 0, i >= index - count, words[i].sentence == sentence {
            if !words[i].lexicon.isDisjoint(with: flags) { return true }
            i -= 1
        }
        return false
    }

    private mutating func tokenize() {
        let count = bytes.count
        let lexicon = Lexicon.wordTable
        var i = 0
        var sentence = 0
        while i < count {
            let byte = bytes[i]
            if ByteClass.isASCIIAlphanumeric(byte) || (byte >= 0x80 && !isPunctuation(at: i)) {
                i = readWord(from: i, sentence: sentence, lexicon: lexicon)
                continue
            }
            if byte == 0x2E || byte == 0x21 || byte == 0x3F || byte == 0x3B {
                // '.', '!', '?', ';' end a sentence when whitespace or the end follows, except the dot of a
                // short abbreviation ("no.", "Dr.", "St.").
                let next = at(i + 1)
                let abbreviation = byte == 0x2E && words.last.map { $0.end == i && $0.digits == 0 && $0.letters <= 2 } == true
                // A lowercase word after the dot continues the sentence: an ordinal ("in der 9. Woche",
                // "w 9. tygodniu") or an abbreviation ("approx. three").
                let continues = byte == 0x2E && next == 0x20 && ByteClass.isLower(at(i + 2))
                if (next == 0 || ByteClass.isWhitespace(next)) && !abbreviation && !continues { sentence += 1 }
            } else if byte == 0x0A {
                sentence += 1
            } else if byte >= 0x80 {
                i += ByteClass.sequenceLength(byte)
                continue
            }
            i += 1
        }
    }

    /// Reads one word at `start`; returns the index after it.
    private mutating func readWord(from start: Int, sentence: Int, lexicon table: WordTable) -> Int {
        var i = start
        var hash = Lexicon.hashSeed
        var letters = 0, digits = 0
        while i < bytes.count {
            let byte = bytes[i]
            if ByteClass.isASCIILetter(byte) {
                hash = Lexicon.hash(hash, byte | 0x20); letters += 1; i += 1
            } else if ByteClass.isDigit(byte) {
                hash = Lexicon.hash(hash, byte); digits += 1; i += 1
            } else if byte == 0x27, ByteClass.isASCIILetter(at(i + 1)), letters > 0 {
                i += 1  // apostrophe inside a word: "i'm" hashes as "im"
            } else if byte == 0xE2, at(i + 1) == 0x80, at(i + 2) == 0x99, letters > 0 {
                i += 3  // typographic apostrophe U+2019
            } else if byte >= 0x80, !isPunctuation(at: i) {
                let length = ByteClass.sequenceLength(byte)
                scripts.add(codePointAt: i, length: length, in: bytes)
                for k in i..<min(i + length, bytes.count) { hash = Lexicon.hash(hash, bytes[k]) }
                letters += 1; i += length
            } else {
                break
            }
        }
        let lexicon = (letters > 0 && i - start <= 24) ? Lexicon(rawValue: table.value(for: hash)) : []
        allFlags.formUnion(lexicon)
        digitCount += digits
        words.append(Word(start: start, end: i, lexicon: lexicon, hash: hash, sentence: sentence, letters: letters, digits: digits,
                          isCapitalized: ByteClass.isUpper(bytes[start])))
        return i
    }

    /// Non-ASCII punctuation that separates words: general punctuation (U+2000–U+206F, except the
    /// apostrophe U+2019 handled by the caller), Latin-1 punctuation (U+00A0–U+00BF) and CJK punctuation
    /// (U+3000–U+303F) and full-width forms' punctuation (U+FF01–U+FF0F).
    private func isPunctuation(at i: Int) -> Bool {
        let lead = bytes[i], second = at(i + 1)
        switch lead {
        case 0xC2: return second >= 0xA0 && second <= 0xBF
        case 0xE2: return (second == 0x80 && at(i + 2) != 0x99) || second == 0x81
        case 0xE3: return second == 0x80
        case 0xEF: return second == 0xBC && at(i + 2) <= 0x8F
        default: return false
        }
    }
}

/// Characters per script, for the language guess.
package struct ScriptCounts: Sendable, Hashable {
    package var han = 0, kana = 0, cyrillic = 0, arabic = 0, hangul = 0, otherNonLatin = 0

    mutating func add(codePointAt i: Int, length: Int, in bytes: [UInt8]) {
        guard let scalar = ByteClass.decode(bytes, at: i, length: length) else { return }
        switch scalar {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF: han += 1
        case 0x3040...0x30FF: kana += 1
        case 0x0400...0x04FF: cyrillic += 1
        case 0x0600...0x06FF, 0x0750...0x077F: arabic += 1
        case 0xAC00...0xD7AF: hangul += 1
        case 0x00C0...0x024F: break  // accented Latin
        default: otherNonLatin += 1
        }
    }

    package var total: Int { han + kana + cyrillic + arabic + hangul + otherNonLatin }
}

/// Byte classification over UTF-8.
package enum ByteClass {
    @inline(__always) package static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
    @inline(__always) package static func isUpper(_ b: UInt8) -> Bool { b &- 0x41 < 26 }
    @inline(__always) package static func isLower(_ b: UInt8) -> Bool { b &- 0x61 < 26 }
    @inline(__always) package static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
    @inline(__always) package static func isASCIIAlphanumeric(_ b: UInt8) -> Bool { isDigit(b) || isASCIILetter(b) }
    @inline(__always) package static func isWhitespace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
    /// Bytes in the UTF-8 sequence a lead byte starts (1 for stray continuation bytes).
    @inline(__always) package static func sequenceLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
    package static func decode(_ bytes: [UInt8], at i: Int, length: Int) -> UInt32? {
        guard length > 1, i + length <= bytes.count else { return nil }
        var value = UInt32(bytes[i]) & (0xFF >> UInt32(length + 1))
        for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
        return value
    }
}
