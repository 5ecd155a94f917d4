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
