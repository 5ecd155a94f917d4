extension SecretRecognizer {
    private static let secretWords: Lexicon = [.password, .passwordWeak, .secretNoun, .secretQualifier]
    /// Words after which a token names an account rather than being its password ("reset the password for user42").
    private static let accountWords: Lexicon = [.accountNoun]

    /// A token within the next six on the same line after a secret word: password-shaped after a
    /// password word ("use the password hunter2", "--password hunter2", "пароль qwerty123"), or
    /// high-entropy and key-shaped after any secret word ("the token Xk9mQ2vL8pZ4wR7t") even when no known
    /// prefix matches.
    static func scanNearbyTokens(_ text: TextScan, into findings: inout [Finding]) {
        guard !text.allFlags.isDisjoint(with: secretWords) else { return }
        let words = text.words
        var index = 0
        while index < words.count {
            let word = words[index]
            guard !word.lexicon.isDisjoint(with: secretWords), !findings.recentlyOverlap(word.start..<word.end + 1) else {
                index += 1; continue
            }
            let strong = word.lexicon.contains(.password)
            var start = runEnd(text, from: word.end)
            var previousWordIsAccount = false
            for _ in 0..<6 {
                while text.at(start) == 0x20 || text.at(start) == 0x09 { start += 1 }
                guard start < text.bytes.count, text.bytes[start] != 0x0A else { break }
                let end = runEnd(text, from: start)
                let token = trimmed(text, start..<end)
                if !token.isEmpty, !previousWordIsAccount,
                   (strong && looksLikePassword(text, token) && !isWord(text, token)) || isHighEntropyKey(text, token),
                   !SecretPlaceholder.isPlaceholder(text.bytes[token]) {
                    findings.append(Finding(kind: .secret, range: word.start..<token.upperBound))
                    break
                }
                let k = text.wordIndex(atOrAfter: start)
                previousWordIsAccount = k < words.count && words[k].start == start && words[k].lexicon.contains(.accountNoun)
                if text.at(end - 1) == 0x2E || text.at(end - 1) == 0x3F { break }  // the sentence ended
                start = end
            }
            index += 1
        }
    }

    /// Without surrounding quotes, brackets and sentence punctuation (a trailing '!' may be the password's).
    private static func trimmed(_ text: TextScan, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        func strip(_ b: UInt8) -> Bool {
            isQuote(b) || b == 0x28 || b == 0x29 || b == 0x5B || b == 0x5D || b == 0x7B || b == 0x7D || b == 0x2C
                || b == 0x3B || b == 0x3C || b == 0x3E
        }
        while lower < upper, strip(text.bytes[lower]) { lower += 1 }
        while upper > lower, strip(text.bytes[upper - 1]) || text.bytes[upper - 1] == 0x2E || text.bytes[upper - 1] == 0x3F
            || text.bytes[upper - 1] == 0x3A { upper -= 1 }
        return lower..<upper
    }

    private static func isWord(_ text: TextScan, _ range: Range<Int>) -> Bool {
        let k = text.wordIndex(atOrAfter: range.lowerBound)
        return k < text.words.count && text.words[k].start == range.lowerBound && text.words[k].end == range.upperBound
            && !text.words[k].lexicon.isEmpty
    }

    /// 12–256 bytes of key characters (symbols allowed), two or more letters and digits, and varied enough
    /// to be random: at least 60% distinct bytes among the first 32, no URL.
    static func isHighEntropyKey(_ text: TextScan, _ range: Range<Int>) -> Bool {
        guard range.count >= 12, range.count <= 256 else { return false }
        var letters = 0, digits = 0, upper = 0, lower = 0
        var seen = (UInt64(0), UInt64(0))
        var distinct = 0
        for i in range {
            let b = text.bytes[i]
            guard b > 0x20, b < 0x7F, b != 0x3A || i == range.upperBound - 1 else { return false }
            if ByteClass.isDigit(b) { digits += 1 }
            else if ByteClass.isUpper(b) { letters += 1; upper += 1 }
            else if ByteClass.isLower(b) { letters += 1; lower += 1 }
            if i - range.lowerBound < 32 {
                let bit = UInt64(1) << UInt64(b & 63)
                if b < 64 { if seen.0 & bit == 0 { distinct += 1; seen.0 |= bit } }
                else if seen.1 & bit == 0 { distinct += 1; seen.1 |= bit }
            }
        }
        let sample = min(range.count, 32)
        // Hex keys and tokens have only sixteen symbols: ten or more distinct among 24+ characters.
        if range.count >= 24, range.allSatisfy({ DecodingLayers.isHex(text.bytes[$0]) }) {
            return letters >= 2 && digits >= 2 && distinct >= 10
        }
        return letters >= 2 && digits >= 2 && distinct * 10 >= sample * 6
    }
}
