/// API keys, tokens, private keys and stated passwords. Known key formats are matched by prefix and
/// length; "password: X", "my password is X", "api key = X" by the phrase and a plausible value.
public enum SecretRecognizer: Recognizer {
    public static let kinds: Set<EntityKind> = [.secret]

    public static func scan(_ text: TextScan, into findings: inout [Finding]) {
        scanKeyFormats(text, into: &findings)
        scanPhrases(text, into: &findings)
    }

    // MARK: Key formats

    private struct KeyFormat {
        let prefix: [UInt8]
        let minimumBody: Int
        /// Exact body length, when the format fixes it.
        let exactBody: Int?
        let uppercaseOnly: Bool
    }

    private static let formats: [KeyFormat] = [
        KeyFormat(prefix: Array("sk-".utf8), minimumBody: 16, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("AKIA".utf8), minimumBody: 16, exactBody: 16, uppercaseOnly: true),
        KeyFormat(prefix: Array("ASIA".utf8), minimumBody: 16, exactBody: 16, uppercaseOnly: true),
        KeyFormat(prefix: Array("ghp_".utf8), minimumBody: 20, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("gho_".utf8), minimumBody: 20, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("ghu_".utf8), minimumBody: 20, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("ghs_".utf8), minimumBody: 20, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("ghr_".utf8), minimumBody: 20, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("github_pat_".utf8), minimumBody: 20, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("xoxb-".utf8), minimumBody: 10, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("xoxp-".utf8), minimumBody: 10, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("AIza".utf8), minimumBody: 30, exactBody: nil, uppercaseOnly: false),
        KeyFormat(prefix: Array("Bearer ".utf8), minimumBody: 20, exactBody: nil, uppercaseOnly: false),
    ]
    private static let pemBegin = Array("-----BEGIN ".utf8)
    private static let pemPrivateKey = Array("PRIVATE KEY-----".utf8)

    private static func scanKeyFormats(_ text: TextScan, into findings: inout [Finding]) {
        let bytes = text.bytes
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            // Every prefix starts with one of these bytes; skip the rest quickly.
            guard b == 0x73 || b == 0x41 || b == 0x67 || b == 0x78 || b == 0x42 || b == 0x2D else { i += 1; continue }
            if b == 0x2D, let end = pemBlock(text, at: i) {
                findings.append(Finding(kind: .secret, range: i..<end)); i = end; continue
            }
            guard !ByteClass.isASCIIAlphanumeric(text.at(i - 1)) else { i += 1; continue }
            var matched = false
            for format in formats where hasPrefix(text, format.prefix, at: i) {
                let bodyStart = i + format.prefix.count
                var end = bodyStart
                while isKeyByte(text.at(end), uppercaseOnly: format.uppercaseOnly) { end += 1 }
                let body = end - bodyStart
                let lengthOK = format.exactBody.map { body == $0 } ?? (body >= format.minimumBody)
                if lengthOK, !ByteClass.isASCIIAlphanumeric(text.at(end)) {
                    findings.append(Finding(kind: .secret, range: i..<end))
                    i = end; matched = true
                    break
                }
            }
            if !matched { i += 1 }
        }
    }

    private static func hasPrefix(_ text: TextScan, _ prefix: [UInt8], at i: Int) -> Bool {
        guard i + prefix.count <= text.bytes.count else { return false }
        for k in prefix.indices where text.bytes[i + k] != prefix[k] { return false }
        return true
    }

    private static func isKeyByte(_ b: UInt8, uppercaseOnly: Bool) -> Bool {
        if uppercaseOnly { return ByteClass.isUpper(b) || ByteClass.isDigit(b) }
        return ByteClass.isASCIIAlphanumeric(b) || b == 0x2D || b == 0x5F || b == 0x2E || b == 0x2B || b == 0x2F
            || b == 0x3D
    }

    /// "-----BEGIN ... PRIVATE KEY-----" on one line; the range runs to the matching END line when present.
    private static func pemBlock(_ text: TextScan, at i: Int) -> Int? {
        guard hasPrefix(text, pemBegin, at: i) else { return nil }
        var j = i + pemBegin.count
        let limit = min(text.bytes.count, j + 40)
        while j < limit, text.bytes[j] != 0x0A {
            if hasPrefix(text, pemPrivateKey, at: j) {
                let headerEnd = j + pemPrivateKey.count
                var k = headerEnd
                while k + 8 < text.bytes.count {
                    if hasPrefix(text, Array("-----END".utf8), at: k) {
                        var end = k + 8
                        while end < text.bytes.count, text.bytes[end] != 0x0A { end += 1 }
                        return end
                    }
                    k += 1
                }
                return text.bytes.count
            }
            j += 1
        }
        return nil
    }
}
