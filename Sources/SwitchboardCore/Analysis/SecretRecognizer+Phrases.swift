extension SecretRecognizer {
    private static let pinHash = Lexicon.hash(of: "pin")
    private static let passeHash = Lexicon.hash(of: "passe"), motHash = Lexicon.hash(of: "mot"), deHash = Lexicon.hash(of: "de")
    private static let authorizationHash = Lexicon.hash(of: "authorization")
    private static let valueAttribute = Array(" value=".utf8)

    /// "password: X", `"password": "X"`, "<password>X</password>", "password = 'two words'", "my password
    /// is X", "mi contraseña es X", "api key: X", "client secret = X", "pass=X" (weak words only when
    /// assigned a password-shaped value), "Authorization: <anything>".
    static func scanPhrases(_ text: TextScan, into findings: inout [Finding]) {
        guard !text.allFlags.isDisjoint(with: [.password, .passwordWeak, .secretNoun]) else { return }
        let words = text.words
        for index in words.indices {
            let word = words[index]
            let isPassword = word.lexicon.contains(.password) || isFrenchPassword(text, index)
            let isWeak = word.lexicon.contains(.passwordWeak)
            var isKeyWord = false, qualified = false
            if !isPassword, !isWeak, word.lexicon.contains(.secretNoun) {
                isKeyWord = true
                qualified = word.lexicon.contains(.secretQualifier)  // "secret" and "apikey" stand alone
                    || (index > 0 && words[index - 1].lexicon.contains(.secretQualifier)
                        && joinedAsPhrase(text, words[index - 1].end, word.start))
            }
            guard isPassword || isWeak || isKeyWord,
                  let value = valueAfter(text, wordIndex: index, allowCopula: isPassword || qualified) else { continue }
            let range = value.range
            let accepted: Bool
            if word.hash == authorizationHash {
                accepted = value.assigned && runEnd(text, from: range.lowerBound) - range.lowerBound >= 8
                    || looksLikeKey(text, range)
            } else if isPassword, word.hash == pinHash {
                accepted = range.count >= 4 && range.count <= 8 && range.allSatisfy { ByteClass.isDigit(text.bytes[$0]) }
            } else if isPassword {
                accepted = range.count >= 3
            } else if isWeak {
                accepted = value.assigned && (looksLikePassword(text, range) || (value.quoted && range.count >= 6))
            } else {
                accepted = (qualified || value.assigned) && looksLikeKey(text, range)
            }
            // Placeholders, variable references and documented defaults carry no secret.
            if accepted, !SecretPlaceholder.isPlaceholder(text.bytes[range]), !SecretPlaceholder.isDocumentedDefault(text, range) {
                findings.append(Finding(kind: .secret, range: word.start..<max(range.upperBound, word.end)))
            }
        }
    }

    /// "mot de passe".
    private static func isFrenchPassword(_ text: TextScan, _ index: Int) -> Bool {
        index >= 2 && text.words[index].hash == passeHash && text.words[index - 1].hash == deHash
            && text.words[index - 2].hash == motHash
    }

    /// Keys mix in digits or are long: "sk9f8e7d6c" yes, "currently" (as in "is currently unavailable") no.
    static func looksLikeKey(_ text: TextScan, _ value: Range<Int>) -> Bool {
        if value.count >= 16 { return true }
        return value.count >= 8 && value.contains { ByteClass.isDigit(text.bytes[$0]) }
    }

    /// Letters with a digit after the first character or a symbol: "hunter2", "Passw0rd!", not
    /// "1Password", "flag", "12".
    static func looksLikePassword(_ text: TextScan, _ value: Range<Int>) -> Bool {
        guard value.count >= 4, value.count <= 64 else { return false }
        var letters = 0, laterDigits = 0, symbols = 0
        for i in value {
            let b = text.bytes[i]
            if ByteClass.isASCIILetter(b) { letters += 1 }
            else if ByteClass.isDigit(b) { if i > value.lowerBound { laterDigits += 1 } }
            else if b == 0x21 || b == 0x40 || b == 0x23 || b == 0x24 || b == 0x25 || b == 0x5E || b == 0x26 || b == 0x2A { symbols += 1 }
            else if b >= 0x80 || b == 0x2F || b == 0x3A { return false }  // paths, URLs, prose
        }
        return letters >= 2 && (laterDigits > 0 || symbols > 0)
    }

    /// Qualifier and noun written "api key", "api_key", "api-key".
    private static func joinedAsPhrase(_ text: TextScan, _ end: Int, _ start: Int) -> Bool {
        start - end == 1 && (text.at(end) == 0x20 || text.at(end) == 0x5F || text.at(end) == 0x2D)
    }

    struct Value {
        var range: Range<Int>
        /// After ':', '=', or an XML tag's '>' (not after "is").
        var assigned: Bool
        var quoted: Bool
    }

    /// The value after ':' / '=' / '>' (XML) or after a copula; quoted values may hold spaces. Nil when
    /// there is none, it is a placeholder ("(see vault)", "${VAR}", "****") or an ordinary word ("is too short").
    private static func valueAfter(_ text: TextScan, wordIndex: Int, allowCopula: Bool) -> Value? {
        let words = text.words
        let word = words[wordIndex]
        var i = word.end
        if isQuote(text.at(i)) { i += 1 }  // "password": …
        if hasPrefix(text, valueAttribute, at: i) { i += valueAttribute.count - 1 }  // key="ApiKey" value="…"
        while text.at(i) == 0x20 { i += 1 }
        let b = text.at(i)
        var assigned = false
        if b == 0x3A || b == 0x3D || (b == 0x3E && text.at(word.start - 1) == 0x3C) {
            assigned = true
            i += 1
            if text.at(i) == 0x3D || text.at(i) == 0x3E { i += 1 }  // ":=", "=>"
            while ByteClass.isWhitespace(text.at(i)) { i += 1 }
        } else if allowCopula, wordIndex + 1 < words.count, words[wordIndex + 1].start == i,
                  words[wordIndex + 1].lexicon.contains(.copula) {
            i = words[wordIndex + 1].end
            if text.at(i) == 0x3A { i += 1 }
            guard ByteClass.isWhitespace(text.at(i)) else { return nil }
            while ByteClass.isWhitespace(text.at(i)) { i += 1 }
            if let phrase = passphrase(text, from: i) { return Value(range: phrase, assigned: false, quoted: false) }
        } else {
            return nil
        }
        return readValue(text, from: i, assigned: assigned, xml: b == 0x3E)
    }

    private static func readValue(_ text: TextScan, from start: Int, assigned: Bool, xml: Bool) -> Value? {
        let first = text.at(start)
        if first == 0x28 || first == 0x5B || first == 0x7B || first == 0x3C || first == 0x2A
            || (first == 0x24 && (text.at(start + 1) == 0x7B || text.at(start + 1) == 0x28)) { return nil }
        var i = start
        if isQuote(first) {
            i += 1
            while i < text.bytes.count, text.bytes[i] != first, text.bytes[i] != 0x0A, i - start < 200 { i += 1 }
            guard i > start + 1 else { return nil }
            return Value(range: (start + 1)..<i, assigned: assigned, quoted: true)
        }
        if xml {
            while i < text.bytes.count, text.bytes[i] != 0x3C, text.bytes[i] != 0x0A { i += 1 }
        } else {
            i = runEnd(text, from: start)
        }
        var end = i
        while end > start, isTrailingPunctuation(text.bytes[end - 1]) { end -= 1 }
        guard end > start else { return nil }
        let valueWord = text.wordIndex(atOrAfter: start)
        if valueWord < text.words.count, text.words[valueWord].start == start, text.words[valueWord].end == end,
           text.words[valueWord].lexicon.contains(.notAValue) { return nil }
        return Value(range: start..<end, assigned: assigned, quoted: false)
    }

    /// "correct horse battery staple": four to eight plain words, to the end of the sentence, none of them
    /// a function word (the first may be: "correct" is also what people say about a password).
    private static func passphrase(_ text: TextScan, from start: Int) -> Range<Int>? {
        var k = text.wordIndex(atOrAfter: start)
        guard k < text.words.count, text.words[k].start == start else { return nil }
        let first = k, sentence = text.words[k].sentence
        while k < text.words.count, text.words[k].sentence == sentence, k - first < 9 {
            let w = text.words[k]
            guard w.isAlphabetic, k == first || w.lexicon.isDisjoint(with: [.notAValue, .english]) else { return nil }
            if k > first, !(w.start - text.words[k - 1].end == 1 && text.at(w.start - 1) == 0x20) { return nil }
            k += 1
        }
        let count = k - first
        guard count >= 4, count <= 8 else { return nil }
        return start..<text.words[k - 1].end
    }

    private static func isTrailingPunctuation(_ b: UInt8) -> Bool {
        b == 0x2E || b == 0x2C || b == 0x3B || b == 0x29 || b == 0x3F || b == 0x7D || b == 0x3E || b == 0x2F || isQuote(b)
    }

    static func isQuote(_ b: UInt8) -> Bool { b == 0x22 || b == 0x27 || b == 0x60 }
}
