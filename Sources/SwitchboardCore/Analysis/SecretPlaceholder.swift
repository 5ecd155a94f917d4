/// Values that stand for a secret without being one: placeholders (`<password>`, `your-api-key-here`,
/// `REPLACE_ME`, `xxxx`, `****`, `sk-...`), variable references (`$DB_PASS`, `${VAR}`, `%KEY%`,
/// `os.environ["X"]`, `process.env.X`, `getpass()`, `settings.CLIENT_SECRET`), templates (`{{ .Values.x }}`)
/// and patterns (`AKIA[0-9A-Z]{16}`). A privacy engineer lets these through: they carry nothing.
enum SecretPlaceholder {
    /// First-segment names of configuration and environment objects.
    private static let roots: Set<String> = [
        "os", "env", "environ", "process", "settings", "config", "cfg", "conf", "secrets", "vault", "params", "args", "self",
        "this", "options", "opts", "context", "ctx", "app", "keys", "credentials", "creds", "system", "getenv", "dotenv",
    ]
    private static let words = ["your", "placeholder", "replace", "redacted", "dummy", "changeme", "change_me", "xxx",
                                "<", ">"]

    static func isPlaceholder(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        // References and markup: $VAR, ${VAR}, $(cmd), %VAR%, <…>, {…}, […], (…), *…, !vault, @Microsoft.KeyVault(…), `cmd`.
        if [0x24, 0x25, 0x3C, 0x7B, 0x5B, 0x28, 0x2A, 0x21, 0x40, 0x60].contains(first) { return true }
        let text = String(decoding: bytes, as: UTF8.self)
        let lower = text.lowercased()
        if text.hasSuffix("...") || text.hasSuffix("…") { return true }
        if words.contains(where: lower.contains) { return true }
        // One repeated mask character: xxxx, ****, ••••, ####, ....
        if let mask = lower.unicodeScalars.first, lower.unicodeScalars.allSatisfy({ $0 == mask }),
           ["x", "*", "•", "#", ".", "-", "_", "?", "0"].contains(String(mask)) { return true }
        // Function calls and subscripts: getpass.getpass(), os.environ["X"], env(API_KEY), vault.read('x').
        if let open = bytes.firstIndex(where: { $0 == 0x28 || $0 == 0x5B }), open > bytes.startIndex,
           bytes[bytes.startIndex..<open].allSatisfy({ ByteClass.isASCIIAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F }) { return true }
        // Regular expressions: character classes with ranges, counted repeats, escapes.
        if text.contains("[0-9") || text.contains("[A-Z") || text.contains("[a-z") || text.contains("\\d") || text.contains("\\w")
            || text.contains(".*") || text.range(of: #"\{\d+(,\d*)?\}"#, options: .regularExpression) != nil { return true }
        // Dotted paths from a configuration root (process.env.KEY, settings.CLIENT_SECRET).
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        if segments.count >= 2, segments.allSatisfy({ isIdentifier($0) }),
           roots.contains(segments[0].lowercased()) || isEnvironmentName(segments[segments.count - 1]) { return true }
        // An environment variable's name: DB_PASSWORD, YOUR_PASSWORD_HERE, REPLACE_ME.
        if isEnvironmentName(Substring(text)) { return true }
        return false
    }

    private static func isIdentifier(_ s: Substring) -> Bool {
        guard let first = s.utf8.first, ByteClass.isASCIILetter(first) || first == 0x5F else { return false }
        return s.utf8.allSatisfy { ByteClass.isASCIIAlphanumeric($0) || $0 == 0x5F }
    }

    /// Capitals, digits and underscores with at least one underscore and a letter on each side of it.
    private static func isEnvironmentName(_ s: Substring) -> Bool {
        guard s.utf8.contains(0x5F), s.utf8.allSatisfy({ ByteClass.isUpper($0) || ByteClass.isDigit($0) || $0 == 0x5F }) else { return false }
        return s.split(separator: "_").filter { $0.utf8.contains(where: ByteClass.isUpper) }.count >= 2
    }

    /// Weak values a documentation sentence names as defaults ("the default password is changeme").
    private static let defaults: Set<String> = ["changeme", "password", "admin", "root", "secret", "default", "guest", "letmein",
                                                 "test", "1234", "12345", "123456", "12345678", "0000", "toor", "pass"]
    private static let documentationWords: Set<UInt64> = Set(["default", "defaults", "docs", "documentation", "manual", "example",
                                                               "sample", "factory", "initial"].map { Lexicon.hash(of: $0) })

    /// A well-known default value in a sentence about defaults or documentation.
    static func isDocumentedDefault(_ text: TextScan, _ value: Range<Int>) -> Bool {
        guard defaults.contains(String(decoding: text.bytes[value], as: UTF8.self).lowercased()) else { return false }
        let index = text.wordIndex(atOrAfter: value.lowerBound)
        for k in max(0, index - 10)..<index where documentationWords.contains(text.words[k].hash) { return true }
        return false
    }
}
