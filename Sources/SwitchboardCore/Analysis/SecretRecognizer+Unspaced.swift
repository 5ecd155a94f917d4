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
