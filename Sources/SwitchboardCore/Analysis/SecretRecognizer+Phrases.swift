extension SecretRecognizer {
    private static let pinHash = Lexicon.hash(of: "pin")

    /// "password: X", "password=X", "my password is X", "api key: X", "client secret = X".
    static func scanPhrases(_ text: TextScan, into findings: inout [Finding]) {
        guard !text.allFlags.isDisjoint(with: [.password, .secretNoun]) else { return }
        let words = text.words
        for index in words.indices {
            let word = words[index]
            let isPassword = word.lexicon.contains(.password)
            var isKeyPhrase = false
            if !isPassword, word.lexicon.contains(.secretNoun) {
                isKeyPhrase = word.lexicon.contains(.secretQualifier)  // "secret" and "apikey" stand alone
                    || (index > 0 && words[index - 1].lexicon.contains(.secretQualifier)
                        && joinedAsPhrase(text, words[index - 1].end, word.start))
            }
            guard isPassword || isKeyPhrase, let value = valueAfter(text, wordIndex: index) else { continue }
            let length = value.count
            if isPassword, word.hash == pinHash {
                guard length >= 4, length <= 8, value.allSatisfy({ ByteClass.isDigit(text.bytes[$0]) }) else { continue }
            } else if isPassword ? length < 3 : !looksLikeKey(text, value) {
                continue
            }
            findings.append(Finding(kind: .secret, range: word.start..<value.upperBound))
        }
    }

    /// Keys mix in digits or are long: "sk9f8e7d6c" yes, "currently" (as in "is currently unavailable") no.
    private static func looksLikeKey(_ text: TextScan, _ value: Range<Int>) -> Bool {
        if value.count >= 16 { return true }
        return value.count >= 8 && value.contains { ByteClass.isDigit(text.bytes[$0]) }
    }

    /// Qualifier and noun written "api key", "api_key", "api-key".
    private static func joinedAsPhrase(_ text: TextScan, _ end: Int, _ start: Int) -> Bool {
        start - end == 1 && (text.at(end) == 0x20 || text.at(end) == 0x5F || text.at(end) == 0x2D)
    }

    /// The value after ':' / '=' or after "is"/"was": the next run of non-space bytes, without trailing
    /// sentence punctuation; nil when there is none or it is an ordinary word ("is too short").
    private static func valueAfter(_ text: TextScan, wordIndex: Int) -> Range<Int>? {
        let words = text.words
        var i = words[wordIndex].end
        while text.at(i) == 0x20 || text.at(i) == 0x09 { i += 1 }
        let b = text.at(i)
        if b == 0x3A || b == 0x3D {
            i += 1
            while ByteClass.isWhitespace(text.at(i)) { i += 1 }
        } else if wordIndex + 1 < words.count, words[wordIndex + 1].start == i,
                  words[wordIndex + 1].lexicon.contains(.copula) {
            i = words[wordIndex + 1].end
            if text.at(i) == 0x3A { i += 1 }
            guard ByteClass.isWhitespace(text.at(i)) else { return nil }
            while ByteClass.isWhitespace(text.at(i)) { i += 1 }
        } else {
            return nil
        }
        let start = i
        while i < text.bytes.count, !ByteClass.isWhitespace(text.bytes[i]) { i += 1 }
        var end = i
        while end > start, isTrailingPunctuation(text.bytes[end - 1]) { end -= 1 }
        var valueStart = start
        if end > start, isQuote(text.bytes[start]) { valueStart += 1 }
        guard end > valueStart else { return nil }
        let valueWord = text.wordIndex(atOrAfter: valueStart)
        if valueWord < words.count, words[valueWord].start == valueStart, words[valueWord].end == end,
           words[valueWord].lexicon.contains(.notAValue) { return nil }
        return valueStart..<end
    }

    private static func isTrailingPunctuation(_ b: UInt8) -> Bool {
        b == 0x2E || b == 0x2C || b == 0x3B || b == 0x29 || b == 0x3F || isQuote(b)
    }

    private static func isQuote(_ b: UInt8) -> Bool { b == 0x22 || b == 0x27 || b == 0x60 }
}
