extension SecretRecognizer {
    /// `scheme://user:password@host` (also an empty user, `redis://:pw@host`), and a key-shaped token as
    /// the whole user part (`https://ghp_…@github.com`). `https://user@host` and `ssh://git@host` stay public.
    static func scanCredentialURLs(_ text: TextScan, into findings: inout [Finding]) {
        var i = 0
        let bytes = text.bytes
        while i + 3 < bytes.count {
            guard bytes[i] == 0x3A, bytes[i + 1] == 0x2F, bytes[i + 2] == 0x2F else { i += 1; continue }
            let start = i + 3
            var end = start, colon: Int?, at: Int?
            while end < bytes.count, end - start < 512 {
                let b = bytes[end]
                if ByteClass.isWhitespace(b) || b == 0x2F || b == 0x3F || b == 0x23 || b == 0x22 || b == 0x27 { break }
                if b == 0x40 { at = end }
                if b == 0x3A, at == nil, colon == nil { colon = end }
                end += 1
            }
            if let at, at > start {
                let hasPassword = colon.map { $0 + 1 < at } ?? false
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
