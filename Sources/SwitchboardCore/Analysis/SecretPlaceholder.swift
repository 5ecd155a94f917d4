/// Values that stand for a secret without being one: placeholders (`<password>`, `your-api-key-here`,
/// `REPLACE_ME`, `xxxx`, `****`, `sk-...`), variable references (`$DB_PASS`, `${VAR}`, `%KEY%`,
/// `os.environ["X"]`, `process.env.X`, `getpass()`, `settings.CLIENT_SECRET`), templates (`{{ .Values.x }}`)
/// and patterns (`AKIA[0-9A-Z]{16}`). A privacy engineer lets these through: they carry nothing.
enum SecretPlaceholder {
    /// First-segment names of configuration and environment objects.
    private static let roots: Set<[UInt8]> = Set([
        "os", "env", "environ", "process", "settings", "config", "cfg", "conf", "secrets", "vault", "params", "args", "self",
        "this", "options", "opts", "context", "ctx", "app", "keys", "credentials", "creds", "system", "getenv", "dotenv",
    ].map { Array($0.utf8) })
    private static let words: [[UInt8]] = ["your", "placeholder", "replace", "redacted", "dummy", "xxx", "<", ">"].map { Array($0.utf8) }

    static func isPlaceholder(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        // References and markup: $VAR, ${VAR}, $(cmd), %VAR%, <…>, {…}, […], (…), *…, !vault, @Microsoft.KeyVault(…), `cmd`.
        if first == 0x24 || first == 0x25 || first == 0x3C || first == 0x7B || first == 0x5B || first == 0x28 || first == 0x2A
            || first == 0x21 || first == 0x40 || first == 0x60 { return true }
        // Bytes only (no Foundation: this runs on every candidate value of every request).
        let lower = bytes.map { ByteClass.isUpper($0) ? $0 | 0x20 : $0 }
        if lower.count >= 3, lower.suffix(3).allSatisfy({ $0 == 0x2E }) { return true }  // "sk-..."
        if lower.count >= 3, lower.suffix(3).elementsEqual([0xE2, 0x80, 0xA6]) { return true }  // "…"
        for word in words where contains(lower, word) { return true }
        // One repeated mask character: xxxx, ****, ####, ...., 0000.
        if lower.allSatisfy({ $0 == lower[0] }), [0x78, 0x2A, 0x23, 0x2E, 0x2D, 0x5F, 0x3F, 0x30].contains(lower[0]) { return true }
        if contains(lower, bullet), lower.count % 3 == 0, stride(from: 0, to: lower.count, by: 3).allSatisfy({ lower[$0] == 0xE2 }) { return true }
        // Function calls and subscripts: getpass.getpass(), os.environ["X"], env(API_KEY), vault.read('x').
        if let open = bytes.firstIndex(where: { $0 == 0x28 || $0 == 0x5B }), open > bytes.startIndex,
           bytes[bytes.startIndex..<open].allSatisfy({ ByteClass.isASCIIAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F }) { return true }
        if isRegularExpression(lower) { return true }
        // Dotted paths from a configuration root (process.env.KEY, settings.CLIENT_SECRET).
        let segments = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        if segments.count >= 2, segments.allSatisfy(isIdentifier),
           roots.contains(Array(segments[0]).map { ByteClass.isUpper($0) ? $0 | 0x20 : $0 }) || isEnvironmentName(segments[segments.count - 1]) {
            return true
        }
        // An environment variable's name: DB_PASSWORD, YOUR_PASSWORD_HERE, REPLACE_ME.
        return isEnvironmentName(bytes)
    }

    private static let bullet: [UInt8] = [0xE2, 0x80, 0xA2]

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Character classes with ranges ("[0-9", "[a-z"), escapes ("\d", "\w"), ".*" and counted repeats ("{16}", "{8,}").
    private static func isRegularExpression(_ s: [UInt8]) -> Bool {
        for i in s.indices {
            let b = s[i], next = i + 1 < s.count ? s[i + 1] : 0
            if b == 0x5B, i + 2 < s.count, ByteClass.isASCIIAlphanumeric(next), s[i + 2] == 0x2D { return true }
            if b == 0x5C, next == 0x64 || next == 0x77 || next == 0x73 { return true }
            if b == 0x2E, next == 0x2A { return true }
            if b == 0x7B, ByteClass.isDigit(next) {
                var k = i + 1
                while k < s.count, ByteClass.isDigit(s[k]) || s[k] == 0x2C { k += 1 }
                if k < s.count, s[k] == 0x7D { return true }
            }
        }
        return false
    }

    private static func isIdentifier(_ s: ArraySlice<UInt8>) -> Bool {
        guard let first = s.first, ByteClass.isASCIILetter(first) || first == 0x5F else { return false }
        return s.allSatisfy { ByteClass.isASCIIAlphanumeric($0) || $0 == 0x5F }
    }

    /// Capitals, digits and underscores with at least two parts holding capitals: DB_PASSWORD, REPLACE_ME.
    private static func isEnvironmentName(_ s: ArraySlice<UInt8>) -> Bool {
        guard s.contains(0x5F), s.allSatisfy({ ByteClass.isUpper($0) || ByteClass.isDigit($0) || $0 == 0x5F }) else { return false }
        return s.split(separator: 0x5F).filter { $0.contains(where: ByteClass.isUpper) }.count >= 2
    }

    /// Weak values a documentation sentence names as defaults ("the default password is changeme").
    private static let defaults: Set<String> = ["changeme", "password", "admin", "root", "secret", "default", "guest", "letmein",
                                                 "test", "1234", "12345", "123456", "12345678", "0000", "toor", "pass"]
    private static let documentationWords = WordSet("default defaults docs documentation manual example sample factory initial")

    /// A well-known default value in a sentence about defaults or documentation.
    static func isDocumentedDefault(_ text: TextScan, _ value: Range<Int>) -> Bool {
        guard value.count <= 12, defaults.contains(String(decoding: text.bytes[value].map { ByteClass.isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self))
        else { return false }
        let index = text.wordIndex(atOrAfter: value.lowerBound)
        for k in max(0, index - 10)..<index where documentationWords.contains(text.words[k].hash) { return true }
        return false
    }
}
