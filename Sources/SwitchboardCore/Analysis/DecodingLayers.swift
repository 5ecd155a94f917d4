/// Decoded views of a text for the analyzer's second, one-layer-deep pass: each candidate is a decoded
/// text and the span of the original (normalized) text it came from. Every layer is linear in the text
/// and triggered by a cheap sign of itself, and the number of whole-text candidates is capped, so the
/// cost stays bounded whatever the input:
/// - base64 runs (`EncodedText`);
/// - percent-encoding (`%70%61…`) and HTML numeric and named entities (`&#112;`, `&#x70;`, `&colon;`);
/// - hex that decodes to readable text (`70617373…`, `70 61 73 73`, `\x70\x61`);
/// - ROT13, when a word's ROT13 is a privacy keyword ("cnffjbeq" → "password");
/// - reversed digit runs, when a reversal cue or card/SSN words are present;
/// - letter-for-digit substitution inside numeric runs ("5l29 5O29", "O78-O5-ll2O");
/// - letters spaced apart ("p a s s w o r d", "s-s-n");
/// - a number split over sentences, rejoined after its card or SSN words.
enum DecodingLayers {
    struct Candidate {
        var range: Range<Int>
        var decoded: String
        /// Which layer decoded it, for `analyze` reasons.
        var layer: String
    }

    /// Whole-text candidates per text (each costs one more recognizer pass).
    static let maxWholeTextCandidates = 8

    static func candidates(in text: TextScan) -> [Candidate] {
        var result = EncodedText.candidates(in: text).map { Candidate(range: $0.range, decoded: $0.decoded, layer: "base64") }
        let bytes = text.bytes
        var hasPercent = false, hasAmpersand = false, hasHex = false
        bytes.withUnsafeBufferPointer { buffer in
            for (i, b) in buffer.enumerated() {
                if b == 0x25, i + 2 < buffer.count, isHex(buffer[i + 1]), isHex(buffer[i + 2]) { hasPercent = true }
                else if b == 0x26 { hasAmpersand = true }
                else if b == 0x5C, i + 1 < buffer.count, buffer[i + 1] == 0x78 { hasHex = true }
            }
        }
        var whole: [Candidate] = []
        if hasPercent, let c = replaced(text, layer: "percent", decode: percent) { whole.append(c) }
        if hasAmpersand, let c = replaced(text, layer: "html", decode: htmlEntity) { whole.append(c) }
        whole.append(contentsOf: hexRuns(text, escaped: hasHex))
        if let c = rot13(text) { whole.append(c) }
        if let c = NumericDisguise.reversed(text) { whole.append(c) }
        if let c = NumericDisguise.letterDigits(text) { whole.append(c) }
        if let c = NumericDisguise.splitNumber(text) { whole.append(c) }
        if let c = spacedLetters(text) { whole.append(c) }
        result.append(contentsOf: whole.prefix(maxWholeTextCandidates))
        return result
    }

    @inline(__always) static func isHex(_ b: UInt8) -> Bool { ByteClass.isDigit(b) || (b | 0x20) &- 0x61 < 6 }
    @inline(__always) static func hexValue(_ b: UInt8) -> UInt8 { ByteClass.isDigit(b) ? b &- 0x30 : (b | 0x20) &- 0x61 + 10 }

    /// Rewrites the text with `decode` (which returns the bytes it consumed and what they decode to, or
    /// nil to copy one byte); a candidate when anything changed and the result is valid UTF-8.
    private static func replaced(_ text: TextScan, layer: String, decode: ([UInt8], Int) -> (consumed: Int, output: [UInt8])?) -> Candidate? {
        let bytes = text.bytes
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var first = Int.max, last = 0, i = 0
        while i < bytes.count {
            if let step = decode(bytes, i) {
                output.append(contentsOf: step.output)
                first = min(first, i); last = i + step.consumed
                i += step.consumed
            } else {
                output.append(bytes[i]); i += 1
            }
        }
        guard first < last, let decoded = String(validating: output, as: UTF8.self) else { return nil }
        return Candidate(range: first..<last, decoded: decoded, layer: layer)
    }

    private static func percent(_ bytes: [UInt8], _ i: Int) -> (consumed: Int, output: [UInt8])? {
        guard bytes[i] == 0x25, i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) else { return nil }
        return (3, [hexValue(bytes[i + 1]) << 4 | hexValue(bytes[i + 2])])
    }

    /// Named entities people and HTML-escaping libraries write for ASCII punctuation and spaces.
    private static let named: [String: UInt8] = [
        "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27, "nbsp": 0x20, "colon": 0x3A, "excl": 0x21,
        "num": 0x23, "dollar": 0x24, "percnt": 0x25, "commat": 0x40, "period": 0x2E, "comma": 0x2C, "semi": 0x3B,
        "lowbar": 0x5F, "hyphen": 0x2D, "dash": 0x2D, "sol": 0x2F, "equals": 0x3D, "plus": 0x2B, "quest": 0x3F,
        "lpar": 0x28, "rpar": 0x29, "ast": 0x2A, "midast": 0x2A, "lsqb": 0x5B, "rsqb": 0x5D, "lcub": 0x7B, "rcub": 0x7D,
        "vert": 0x7C, "bsol": 0x5C, "grave": 0x60, "tilde": 0x7E, "hat": 0x5E, "Tab": 0x09, "NewLine": 0x0A,
    ]

    private static func htmlEntity(_ bytes: [UInt8], _ i: Int) -> (consumed: Int, output: [UInt8])? {
        guard bytes[i] == 0x26 else { return nil }
        var end = i + 1
        while end < bytes.count, end - i <= 10, bytes[end] != 0x3B, ByteClass.isASCIIAlphanumeric(bytes[end]) || bytes[end] == 0x23 { end += 1 }
        guard end < bytes.count, bytes[end] == 0x3B, end > i + 1 else { return nil }
        let body = bytes[(i + 1)..<end]
        if body.first == 0x23 {
            var value: UInt32 = 0
            let hex = body.dropFirst().first.map { $0 | 0x20 } == 0x78
            let digits = body.dropFirst(hex ? 2 : 1)
            guard !digits.isEmpty, digits.count <= 7 else { return nil }
            for b in digits {
                if hex { guard isHex(b) else { return nil }; value = value << 4 | UInt32(hexValue(b)) }
                else { guard ByteClass.isDigit(b) else { return nil }; value = value * 10 + UInt32(b &- 0x30) }
            }
            guard value > 0, let scalar = Unicode.Scalar(value) else { return nil }
            return (end + 1 - i, Array(String(Character(scalar)).utf8))
        }
        guard let byte = named[String(decoding: body, as: UTF8.self)] else { return nil }
        return (end + 1 - i, [byte])
    }

    /// Runs of hex pairs, solid or separated by one space, ':' or '\x', that decode to six or more
    /// readable bytes with letters in them (hashes and UUIDs decode to binary and are left alone).
    private static func hexRuns(_ text: TextScan, escaped: Bool) -> [Candidate] {
        let bytes = text.bytes
        var result: [Candidate] = []
        var i = 0
        while i + 12 <= bytes.count, result.count < 4 {
            let escapeStart = escaped && bytes[i] == 0x5C && bytes[i + 1] == 0x78
            guard escapeStart || (isHex(bytes[i]) && (i == 0 || !ByteClass.isASCIIAlphanumeric(bytes[i - 1]))) else { i += 1; continue }
            let from = escapeStart ? i + 2 : i
            // The pairs are counted first and decoded only when there are enough: most runs are
            // words that start with a-f ("be", "dead"), which are never decoded, so never allocated.
            var k = from, pairs = 0
            while k + 1 < bytes.count, isHex(bytes[k]), isHex(bytes[k + 1]) { k = nextPair(bytes, after: k); pairs += 1 }
            var decoded: [UInt8] = []
            if pairs >= 6 {
                decoded.reserveCapacity(pairs)
                var p = from
                while p < k { decoded.append(hexValue(bytes[p]) << 4 | hexValue(bytes[p + 1])); p = nextPair(bytes, after: p) }
            }
            if decoded.count >= 6, !ByteClass.isASCIIAlphanumeric(k < bytes.count ? bytes[k] : 0x20) || escapeStart,
               readable(decoded), let string = String(validating: decoded, as: UTF8.self) {
                result.append(Candidate(range: i..<k, decoded: string, layer: "hex"))
                i = k
            } else {
                i = max(k, i + 1)
            }
        }
        return result
    }

    /// Where the hex pair after the one at `k` starts: past a `\x` escape, or one space or colon
    /// between pairs ("de ad be ef", "de:ad:be:ef").
    @inline(__always) private static func nextPair(_ bytes: [UInt8], after k: Int) -> Int {
        let k = k + 2
        if bytes.count > k + 2, bytes[k] == 0x5C, bytes[k + 1] == 0x78 { return k + 2 }
        if k + 2 < bytes.count, bytes[k] == 0x20 || bytes[k] == 0x3A, isHex(bytes[k + 1]), isHex(bytes[k + 2]) { return k + 1 }
        return k
    }

    /// Printable ASCII (or UTF-8) with at least two letters: text a person encoded.
    static func readable(_ bytes: [UInt8]) -> Bool {
        var printable = 0, letters = 0
        for b in bytes {
            if (b >= 0x20 && b < 0x7F) || b == 0x0A || b >= 0x80 { printable += 1 }
            if ByteClass.isASCIILetter(b) { letters += 1 }
        }
        return letters >= 2 && printable * 10 >= bytes.count * 9
    }

    private static let rot13Cues: Lexicon = [.password, .secretNoun, .ssnContext, .cardContext, .passport]

    /// The whole text in ROT13 when one of its words reads as a privacy keyword once rotated.
    private static func rot13(_ text: TextScan) -> Candidate? {
        var found = false
        // Words the lexicon knows are real words, not rotated ones.
        for word in text.words where word.lexicon.isEmpty && word.isAlphabetic && word.length >= 3 && word.length <= 12
            && word.letters == word.length {
            var hash = Lexicon.hashSeed
            for k in word.start..<word.end { hash = Lexicon.hash(hash, rotate(text.bytes[k] | 0x20)) }
            if !Lexicon.flags(forHash: hash).isDisjoint(with: rot13Cues) || SecretLanguage.isPasswordWord(hash: hash) { found = true; break }
        }
        guard found else { return nil }
        let decoded = text.bytes.map(rotate)
        return Candidate(range: 0..<text.bytes.count, decoded: String(decoding: decoded, as: UTF8.self), layer: "rot13")
    }

    @inline(__always) static func rotate(_ b: UInt8) -> UInt8 {
        if ByteClass.isLower(b) { return (b - 0x61 + 13) % 26 + 0x61 }
        if ByteClass.isUpper(b) { return (b - 0x41 + 13) % 26 + 0x41 }
        return b
    }

    /// "p a s s w o r d", "P.A.S.S.W.O.R.D", "s-s-n": single letters joined by one space (four or more)
    /// or by '.', '-', '_' (three or more), rewritten as one word.
    private static func spacedLetters(_ text: TextScan) -> Candidate? {
        guard hasSpacedLetters(text) else { return nil }
        let bytes = text.bytes
        var output: [UInt8] = []
        var first = Int.max, last = 0, i = 0, changed = false
        while i < bytes.count {
            let b = bytes[i]
            if ByteClass.isASCIILetter(b), i == 0 || !ByteClass.isASCIIAlphanumeric(bytes[i - 1]) {
                let separator = i + 2 < bytes.count ? bytes[i + 1] : 0
                if separator == 0x20 || separator == 0x2E || separator == 0x2D || separator == 0x5F {
                    var k = i, letters = 0
                    while k < bytes.count, ByteClass.isASCIILetter(bytes[k]), k + 1 >= bytes.count || !ByteClass.isASCIIAlphanumeric(bytes[k + 1]) {
                        letters += 1
                        k += 1
                        // Continue over one separator only to another single letter.
                        guard k + 1 < bytes.count, bytes[k] == separator, ByteClass.isASCIILetter(bytes[k + 1]),
                              k + 2 >= bytes.count || !ByteClass.isASCIIAlphanumeric(bytes[k + 2]) else { break }
                        k += 1
                    }
                    if letters >= (separator == 0x20 ? 4 : 3) {
                        var j = i
                        while j < k { if bytes[j] != separator { output.append(bytes[j]) }; j += 1 }
                        first = min(first, i); last = k; changed = true
                        i = k
                        continue
                    }
                }
            }
            output.append(b); i += 1
        }
        guard changed, let decoded = String(validating: output, as: UTF8.self) else { return nil }
        return Candidate(range: first..<last, decoded: decoded, layer: "spaced")
    }

    /// The cheap test before the rewrite: a lone letter, a separator and another lone letter, three times
    /// in a row ("p a s", "s-s-n").
    private static func hasSpacedLetters(_ text: TextScan) -> Bool {
        text.bytes.withUnsafeBufferPointer { bytes in
            guard bytes.count >= 5 else { return false }
            var run = 0, i = 0
            while i + 1 < bytes.count {
                let lone = ByteClass.isASCIILetter(bytes[i]) && (i == 0 || !ByteClass.isASCIIAlphanumeric(bytes[i - 1]))
                    && !ByteClass.isASCIIAlphanumeric(bytes[i + 1])
                if lone {
                    run += 1
                    if run >= 3 { return true }
                    let separator = bytes[i + 1]
                    guard separator == 0x20 || separator == 0x2E || separator == 0x2D || separator == 0x5F else { run = 0; i += 1; continue }
                    i += 2
                } else {
                    run = 0; i += 1
                }
            }
            return false
        }
    }
}
