extension SecretRecognizer {
    struct KeyFormat {
        let prefix: [UInt8]
        let minimumBody: Int
        /// Exact body length, when the format fixes it.
        let exactBody: Int?
        let uppercaseOnly: Bool

        init(_ prefix: String, minimumBody: Int, exactBody: Int? = nil, uppercaseOnly: Bool = false) {
            self.prefix = Array(prefix.utf8); self.minimumBody = minimumBody
            self.exactBody = exactBody; self.uppercaseOnly = uppercaseOnly
        }
    }

    /// Publishable keys (`pk_live_`) are public by design and deliberately absent.
    static let formats: [KeyFormat] = [
        KeyFormat("sk-", minimumBody: 16),
        KeyFormat("sk_live_", minimumBody: 16), KeyFormat("sk_test_", minimumBody: 16),
        KeyFormat("rk_live_", minimumBody: 16), KeyFormat("rk_test_", minimumBody: 16),
        KeyFormat("whsec_", minimumBody: 20),
        KeyFormat("AKIA", minimumBody: 16, exactBody: 16, uppercaseOnly: true),
        KeyFormat("ASIA", minimumBody: 16, exactBody: 16, uppercaseOnly: true),
        KeyFormat("ghp_", minimumBody: 20), KeyFormat("gho_", minimumBody: 20), KeyFormat("ghu_", minimumBody: 20),
        KeyFormat("ghs_", minimumBody: 20), KeyFormat("ghr_", minimumBody: 20), KeyFormat("github_pat_", minimumBody: 20),
        KeyFormat("glpat-", minimumBody: 20),
        KeyFormat("hf_", minimumBody: 30), KeyFormat("npm_", minimumBody: 30),
        KeyFormat("xoxb-", minimumBody: 10), KeyFormat("xoxp-", minimumBody: 10), KeyFormat("xoxa-", minimumBody: 10),
        KeyFormat("xoxs-", minimumBody: 10), KeyFormat("SG.", minimumBody: 40),
        KeyFormat("AIza", minimumBody: 30),
        KeyFormat("Bearer ", minimumBody: 20),
    ]
    private static let pemBegin = Array("-----BEGIN ".utf8)
    private static let privateKey = Array("PRIVATE KEY".utf8)
    private static let pemEnd = Array("-----END".utf8)
    private static let jwtStart = Array("eyJ".utf8)
    private static let basic = Array("Basic ".utf8)

    /// The formats by the first byte of their prefix.
    private static let formatsByFirstByte: [[KeyFormat]] = {
        var table = [[KeyFormat]](repeating: [], count: 256)
        for format in formats { table[Int(format.prefix[0])].append(format) }
        return table
    }()

    /// First bytes of every prefix, so most bytes are skipped with one table load.
    private static let startBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for format in formats { table[Int(format.prefix[0])] = true }
        for byte in "-eB".utf8 { table[Int(byte)] = true }
        return table
    }()

    static func scanKeyFormats(_ text: TextScan, into findings: inout [Finding]) {
        let bytes = text.bytes
        // Tables read once per scan, not per byte (each static read is a `swift_once` check).
        let starts = startBytes, byFirstByte = formatsByFirstByte
        var i = 0
        while i < bytes.count {
            // Skip to the next byte a format can start with (a tight loop: it sees every byte).
            i = starts.withUnsafeBufferPointer { starts in
                bytes.withUnsafeBufferPointer { bytes in
                    var k = i
                    while k < bytes.count, !starts[Int(bytes[k])] { k += 1 }
                    return k
                }
            }
            guard i < bytes.count else { return }
            let b = bytes[i]
            if b == 0x2D, let end = pemBlock(text, at: i) {
                findings.append(Finding(kind: .secret, range: i..<end)); i = end; continue
            }
            guard !ByteClass.isASCIIAlphanumeric(text.at(i - 1)) else { i += 1; continue }
            if let end = jwt(text, at: i) ?? basicCredentials(text, at: i) ?? knownFormat(text, at: i, among: byFirstByte[Int(b)]) {
                findings.append(Finding(kind: .secret, range: i..<end)); i = end; continue
            }
            i += 1
        }
    }

    /// `candidates`: the formats whose prefix starts with the byte at `i`.
    private static func knownFormat(_ text: TextScan, at i: Int, among candidates: [KeyFormat]) -> Int? {
        for format in candidates where hasPrefix(text, format.prefix, at: i) {
            let bodyStart = i + format.prefix.count
            var end = bodyStart
            while isKeyByte(text.at(end), uppercaseOnly: format.uppercaseOnly) { end += 1 }
            var body = end - bodyStart
            // A key split by a space or line break (or a removed zero-width character) reads as one.
            var pieces = 0, digits = 0
            while body < (format.exactBody ?? format.minimumBody), pieces < 4,
                  let next = continuation(text, after: end, uppercaseOnly: format.uppercaseOnly) {
                body += next.count
                for k in next where ByteClass.isDigit(text.bytes[k]) { digits += 1 }
                end = next.upperBound; pieces += 1
            }
            if pieces > 0, digits < 2, !format.uppercaseOnly { continue }
            let lengthOK = format.exactBody.map { body == $0 } ?? (body >= format.minimumBody)
            if lengthOK, !ByteClass.isASCIIAlphanumeric(text.at(end)) { return end }
        }
        return nil
    }

    /// The next run of key bytes after one space or line break, when it is not an ordinary word.
    private static func continuation(_ text: TextScan, after end: Int, uppercaseOnly: Bool) -> Range<Int>? {
        let gap = text.at(end)
        guard gap == 0x20 || gap == 0x0A else { return nil }
        let start = end + 1
        var stop = start
        while isKeyByte(text.at(stop), uppercaseOnly: uppercaseOnly) { stop += 1 }
        guard stop > start, !ByteClass.isASCIIAlphanumeric(text.at(stop)) else { return nil }
        let word = text.wordIndex(atOrAfter: start)
        if word < text.words.count, text.words[word].start == start, !text.words[word].lexicon.isEmpty { return nil }
        return start..<stop
    }

    /// header.payload[.signature], base64url, each JSON part starting `{"` (base64 "eyJ").
    private static func jwt(_ text: TextScan, at i: Int) -> Int? {
        guard hasPrefix(text, jwtStart, at: i) else { return nil }
        var end = i, dots = 0, segment = 0
        while true {
            let b = text.at(end)
            if ByteClass.isASCIIAlphanumeric(b) || b == 0x2D || b == 0x5F { end += 1; segment += 1; continue }
            if b == 0x2E, segment >= 10, dots < 2, hasPrefix(text, jwtStart, at: end + 1) || dots == 1 {
                dots += 1; segment = 0; end += 1; continue
            }
            break
        }
        return dots >= 1 ? end : nil
    }

    /// `Basic <base64 of user:password>`.
    private static func basicCredentials(_ text: TextScan, at i: Int) -> Int? {
        guard hasPrefix(text, basic, at: i) else { return nil }
        let start = i + basic.count
        let end = runEnd(text, from: start)
        guard end - start >= 8, let decoded = Base64Decoding.decode(text.bytes[start..<end]),
              decoded.contains(0x3A) else { return nil }
        return end
    }

    /// "-----BEGIN … PRIVATE KEY-----" or "… PRIVATE KEY BLOCK-----" (PGP) on one line; the range runs
    /// to the matching END line when present, else to the end of the text.
    private static func pemBlock(_ text: TextScan, at i: Int) -> Int? {
        guard hasPrefix(text, pemBegin, at: i) else { return nil }
        var j = i + pemBegin.count
        let limit = min(text.bytes.count, j + 40)
        while j < limit, text.bytes[j] != 0x0A {
            if hasPrefix(text, privateKey, at: j) {
                var k = j + privateKey.count
                while k + 8 < text.bytes.count {
                    if hasPrefix(text, pemEnd, at: k) {
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
