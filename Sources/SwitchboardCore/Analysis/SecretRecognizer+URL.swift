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
