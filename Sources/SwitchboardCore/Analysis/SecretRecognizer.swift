/// API keys, tokens, private keys, credentials and stated passwords, in the forms people paste:
/// known key formats by prefix and length (also split by a space or line break), JWTs, PEM and PGP
/// private key blocks, `Authorization: Basic`, credentials in URLs, command-line password flags,
/// `password: X` / `"password": "X"` / `<password>X</password>` / `password = X`, stated passwords and
/// passphrases in several languages, and a high-entropy token next to a secret word.
package enum SecretRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.secret]

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        scanKeyFormats(text, into: &findings)
        scanCredentialURLs(text, into: &findings)
        scanPhrases(text, into: &findings)
        scanCommandLines(text, into: &findings)
        scanUnspacedPhrases(text, into: &findings)
        scanNearbyTokens(text, into: &findings)
        scanShapes(text, into: &findings)
    }

    static func hasPrefix(_ text: TextScan, _ prefix: [UInt8], at i: Int) -> Bool {
        guard i >= 0, i + prefix.count <= text.bytes.count else { return false }
        for k in prefix.indices where text.bytes[i + k] != prefix[k] { return false }
        return true
    }

    /// Bytes a key or token is made of.
    static func isKeyByte(_ b: UInt8, uppercaseOnly: Bool = false) -> Bool {
        if uppercaseOnly { return ByteClass.isUpper(b) || ByteClass.isDigit(b) }
        return ByteClass.isASCIIAlphanumeric(b) || b == 0x2D || b == 0x5F || b == 0x2E || b == 0x2B || b == 0x2F
            || b == 0x3D
    }

    /// The whitespace-delimited run containing nothing but non-space bytes, starting at `start`.
    static func runEnd(_ text: TextScan, from start: Int) -> Int {
        var i = start
        while i < text.bytes.count, !ByteClass.isWhitespace(text.bytes[i]) { i += 1 }
        return i
    }
}

extension SecretRecognizer {
    /// "password" in scripts written without spaces; a following ASCII value is the password.
    private static let unspacedPasswordWords: [[UInt8]] = ["密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호"].map { Array($0.utf8) }

    /// "我的密码是 abc12345", "パスワードは hunter22 です": the word, up to three more characters
    /// (particles, a colon) and an ASCII value of four or more bytes with a digit, or eight or more.
    static func scanUnspacedPhrases(_ text: TextScan, into findings: inout [Finding]) {
        let scripts = text.scripts
        guard scripts.han + scripts.kana + scripts.hangul > 0 else { return }
        for word in unspacedPasswordWords {
            var i = 0
            while i + word.count <= text.bytes.count {
                guard hasPrefix(text, word, at: i) else { i += 1; continue }
                var j = i + word.count, skipped = 0
                while j < text.bytes.count, skipped <= 3, text.bytes[j] >= 0x80 || text.bytes[j] == 0x20 || text.bytes[j] == 0x3A {
                    j += text.bytes[j] >= 0x80 ? ByteClass.sequenceLength(text.bytes[j]) : 1
                    skipped += 1
                }
                var end = j
                while end < text.bytes.count, isKeyByte(text.bytes[end]) || text.bytes[end] == 0x21 || text.bytes[end] == 0x40 { end += 1 }
                let value = j..<end
                if value.count >= 8 || (value.count >= 4 && value.contains { ByteClass.isDigit(text.bytes[$0]) }) {
                    findings.append(Finding(kind: .secret, range: i..<end))
                }
                i = max(end, i + 1)
            }
        }
    }
}

extension SecretRecognizer {
    /// `scheme://user:password@host` (also an empty user, `redis://:pw@host`), and a key-shaped token as
    /// the whole user part (`https://ghp_…@github.com`). `https://user@host` and `ssh://git@host` stay public.
    static func scanCredentialURLs(_ text: TextScan, into findings: inout [Finding]) {
        var i = 0
        let bytes = text.bytes
        while i + 3 < bytes.count {
            // The next "://", in a tight loop (every byte of every request passes here).
            i = bytes.withUnsafeBufferPointer { bytes in
                var k = i
                while k + 3 < bytes.count, !(bytes[k] == 0x3A && bytes[k + 1] == 0x2F && bytes[k + 2] == 0x2F) { k += 1 }
                return k
            }
            guard i + 3 < bytes.count else { return }
            let start = i + 3
            var end = start, colon: Int?, at: Int?
            while end < bytes.count, end - start < 512 {
                let b = bytes[end]
                if ByteClass.isWhitespace(b) || b == 0x2F || b == 0x3F || b == 0x23 || b == 0x22 || b == 0x27 { break }
                if b == 0x40 { at = end }
                if b == 0x3A, at == nil, colon == nil { colon = end }
                end += 1
            }
            // A placeholder password (`redis://:${REDIS_PASSWORD}@host`) is a template, not a credential.
            if let at, at > start, !(colon.map { $0 + 1 < at && SecretPlaceholder.isPlaceholder(bytes[($0 + 1)..<at]) } ?? false) {
                let hasPassword = colon.map { $0 + 1 < at && !SecretPlaceholder.isPlaceholder(bytes[($0 + 1)..<at]) } ?? false
                if hasPassword || looksLikeKey(text, start..<at) && !text.bytes[start..<at].contains(0x2E) {
                    var schemeStart = i
                    while schemeStart > 0, isKeyByte(bytes[schemeStart - 1]) { schemeStart -= 1 }
                    findings.append(Finding(kind: .secret, range: schemeStart..<at))
                }
            }
            i = max(end, i + 1)
        }
    }
}
