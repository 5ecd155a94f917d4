extension SecretRecognizer {
    /// Key names whose value is a secret in connection strings and config files (`AccountKey=…;`,
    /// `SharedAccessKey=…`, WireGuard `PrivateKey = …`), hashed as the scanner hashes words.
    private static let assignedKeyNames = WordSet("""
        accountkey sharedaccesskey sharedaccesssignature accesskey secretkey privatekey presharedkey clientsecret apisecret \
        secretaccesskey appsecret mnemonic seedphrase seed identitytoken authtoken accesstoken refreshtoken
        """)

    /// URL query parameters that carry a credential (`sig=` of a SAS URL, `X-Amz-Signature=`, `token=`).
    private static let queryKeyNames: Set<String> = [
        "sig", "signature", "x-amz-signature", "x-goog-signature", "x-amz-security-token", "access_token", "accesstoken",
        "api_key", "apikey", "token", "secret", "client_secret", "password", "passwd", "pwd", "auth", "key", "code_verifier",
    ]

    /// Paths after which a chat or automation webhook URL is its own secret.
    private static let webhookPaths: [[UInt8]] = [
        "hooks.slack.com/services/", "hooks.slack.com/workflows/", "discord.com/api/webhooks/", "discordapp.com/api/webhooks/",
        "webhook.office.com/webhookb2/", "outlook.office.com/webhook/", "chat.googleapis.com/v1/spaces/", "hooks.zapier.com/hooks/catch/",
        "api.telegram.org/bot", "webhook.site/", "maker.ifttt.com/trigger/",
    ].map { Array($0.utf8) }

    /// Base64 openings of private key bodies pasted without their BEGIN line: "openssh-key-v1", PKCS#8
    /// and PKCS#1 RSA, SEC1 EC and PKCS#8 Ed25519 DER headers.
    private static let keyBodies: [[UInt8]] = [
        "b3BlbnNzaC1rZXktdjE", "BADANBgkqhkiG9w0BAQEFAAS", "AgEAAoIBAQ", "AgEAAoICAQ", "MHcCAQEEI", "MC4CAQAwBQYDK2VwBCIEI",
    ].map { Array($0.utf8) }

    static func scanShapes(_ text: TextScan, into findings: inout [Finding]) {
        scanAssignedKeys(text, into: &findings)
        scanQueryCredentials(text, into: &findings)
        scanWebhooks(text, into: &findings)
        scanKeyBodies(text, into: &findings)
        scanBotTokens(text, into: &findings)
        scanDockerAuth(text, into: &findings)
        scanHexKeys(text, into: &findings)
        scanSeedPhrases(text, into: &findings)
        scanBackupCodes(text, into: &findings)
        scanAccessCodes(text, into: &findings)
        scanMultilingualPasswords(text, into: &findings)
    }

    private static func append(_ findings: inout [Finding], _ range: Range<Int>, _ rule: String) {
        guard !findings.recentlyOverlap(range) else { return }
        findings.append(Finding(kind: .secret, range: range, recognizer: "secret:" + rule))
    }

    /// The run of key bytes after `=` / `:` (spaces and a quote allowed around), or nil.
    private static func assignedValue(_ text: TextScan, after end: Int) -> Range<Int>? {
        var i = end
        if isQuote(text.at(i)) { i += 1 }
        while text.at(i) == 0x20 { i += 1 }
        guard text.at(i) == 0x3D || text.at(i) == 0x3A else { return nil }
        i += 1
        while text.at(i) == 0x20 { i += 1 }
        if isQuote(text.at(i)) { i += 1 }
        var stop = i
        while isKeyByte(text.at(stop)) || text.at(stop) == 0x25 { stop += 1 }
        return stop > i ? i..<stop : nil
    }

    /// `AccountKey=<base64>;`, `PrivateKey = <base64>`, `mnemonic: "…"` (a quoted phrase counts whole).
    static func scanAssignedKeys(_ text: TextScan, into findings: inout [Finding]) {
        for word in text.words where word.letters >= 4 && word.letters <= 24 && assignedKeyNames.contains(word.hash) {
            guard let value = assignedValue(text, after: word.end) else { continue }
            if value.count >= 16, !SecretPlaceholder.isPlaceholder(text.bytes[value]), value.contains(where: { ByteClass.isDigit(text.bytes[$0]) })
                || value.count >= 32 {
                append(&findings, word.start..<value.upperBound, "assigned-key")
            }
        }
    }

    /// `?sig=…`, `&X-Amz-Signature=…`, `?token=…` with a value of 16 or more characters.
    static func scanQueryCredentials(_ text: TextScan, into findings: inout [Finding]) {
        let bytes = text.bytes
        var i = 1
        while i < bytes.count {
            guard bytes[i] == 0x3D else { i += 1; continue }
            var nameStart = i
            while nameStart > 0, i - nameStart <= 24,
                  ByteClass.isASCIIAlphanumeric(bytes[nameStart - 1]) || bytes[nameStart - 1] == 0x2D || bytes[nameStart - 1] == 0x5F {
                nameStart -= 1
            }
            let lead = nameStart > 0 ? bytes[nameStart - 1] : 0
            guard lead == 0x3F || lead == 0x26 || lead == 0x3B, i - nameStart <= 24,
                  queryKeyNames.contains(String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()) else { i += 1; continue }
            var end = i + 1
            while end < bytes.count, isKeyByte(bytes[end]) || bytes[end] == 0x25 { end += 1 }
            let value = (i + 1)..<end
            if value.count >= 16, !SecretPlaceholder.isPlaceholder(bytes[value]) { append(&findings, nameStart..<end, "url-credential") }
            i = end
        }
    }

    /// A webhook URL whose path holds its secret: at least 20 characters with digits, not `XXXXX/XXXXX`.
    static func scanWebhooks(_ text: TextScan, into findings: inout [Finding]) {
        // Every webhook path has a '/' after a '.': one cheap pass before the eleven searches.
        guard text.bytes.count >= 30, hasDotSlash(text) else { return }
        for path in webhookPaths {
            var i = 0
            while let start = find(text, path, from: i) {
                var end = start + path.count
                var digits = 0, letters = 0
                while end < text.bytes.count, isKeyByte(text.bytes[end]) || text.bytes[end] == 0x3A || text.bytes[end] == 0x40 {
                    if ByteClass.isDigit(text.bytes[end]) { digits += 1 } else if ByteClass.isASCIILetter(text.bytes[end]) { letters += 1 }
                    end += 1
                }
                let tail = (start + path.count)..<end
                if tail.count >= 20, digits >= 2, letters >= 4, !SecretPlaceholder.isPlaceholder(text.bytes[tail]) {
                    append(&findings, start..<end, "webhook")
                }
                i = max(end, start + 1)
            }
        }
    }

    /// A private key's base64 body pasted without its BEGIN line.
    static func scanKeyBodies(_ text: TextScan, into findings: inout [Finding]) {
        // Every opening is a run of 9+ letters and digits inside a longer word.
        guard text.bytes.count >= 40, text.words.contains(where: { $0.length >= 19 }) else { return }
        for body in keyBodies {
            guard let at = find(text, body, from: 0) else { continue }
            var start = at
            while start > 0, Base64Decoding.isAlphabet(text.bytes[start - 1]) { start -= 1 }
            var end = at
            while end < text.bytes.count, Base64Decoding.isAlphabet(text.bytes[end]) || text.bytes[end] == 0x0A { end += 1 }
            if end - start >= 40 { append(&findings, start..<end, "key-body") }
        }
    }

    /// Telegram bot tokens (`123456789:AA…`: 8–10 digits, ':' and 30–45 mixed-case characters, 35 in issued
    /// tokens) and Discord bot tokens (three base64url parts: 23–28, 6 and 27–38 characters).
    static func scanBotTokens(_ text: TextScan, into findings: inout [Finding]) {
        let bytes = text.bytes
        func isURLSafe(_ b: UInt8) -> Bool { ByteClass.isASCIIAlphanumeric(b) || b == 0x2D || b == 0x5F }
        // The runs, found through a buffer pointer (every byte of every request passes here). Both token
        // shapes are at least 44 characters: shorter runs (every word of prose) are not looked at again.
        var runs: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                guard isURLSafe(buffer[i]), i == 0 || !isURLSafe(buffer[i - 1]) else { i += 1; continue }
                var end = i
                while end < buffer.count, isURLSafe(buffer[end]) || buffer[end] == 0x3A || buffer[end] == 0x2E { end += 1 }
                if end - i >= 44 { runs.append(i..<end) }
                i = max(end, i + 1)
            }
        }
        for run in runs {
            let i = run.lowerBound, end = run.upperBound
            let token = bytes[i..<end]
            // Discord tokens are 58–74 characters: only those are split (a split allocates).
            let parts = (58...74).contains(token.count) ? token.split(separator: 0x2E, omittingEmptySubsequences: false) : []
            if token.count >= 44, let colon = token.firstIndex(of: 0x3A), (8...10).contains(colon - i),
               bytes[i..<colon].allSatisfy(ByteClass.isDigit),
               (30...45).contains(end - colon - 1), bytes[(colon + 1)..<end].allSatisfy(isURLSafe),
               bytes[(colon + 1)..<end].contains(where: ByteClass.isUpper), bytes[(colon + 1)..<end].contains(where: ByteClass.isLower) {
                append(&findings, i..<end, "bot-token")
            } else if parts.count == 3, (23...28).contains(parts[0].count), parts[1].count == 6, (27...38).contains(parts[2].count),
                      parts.allSatisfy({ $0.allSatisfy(isURLSafe) }), parts[0].contains(where: ByteClass.isDigit),
                      parts[0].contains(where: ByteClass.isUpper), parts[2].contains(where: ByteClass.isDigit) {
                append(&findings, i..<end, "bot-token")
            }
        }
    }

    /// Docker `config.json`: `"auth": "<base64 of user:password>"`.
    private static let authHash = Lexicon.hash(of: "auth")

    static func scanDockerAuth(_ text: TextScan, into findings: inout [Finding]) {
        let authHash = authHash
        for word in text.words where word.hash == authHash {
            guard let value = assignedValue(text, after: word.end), value.count >= 8,
                  let decoded = Base64Decoding.decode(text.bytes[value]), let colon = decoded.firstIndex(of: 0x3A),
                  colon > 0, colon + 1 < decoded.count, DecodingLayers.readable(decoded) else { continue }
            append(&findings, word.start..<value.upperBound, "docker-auth")
        }
    }

    private static let hexKeyCues = WordSet("""
        private priv privkey privatekey secret key wallet seed
        sk signing eth ethereum bitcoin btc solana nostr nsec
        """)

    /// 64 hex characters (optionally `0x`) with a private-key word among the six words before.
    static func scanHexKeys(_ text: TextScan, into findings: inout [Finding]) {
        guard text.bytes.count >= 64 else { return }
        for (index, word) in text.words.enumerated() where word.length >= 64 {
            var start = word.start
            if word.length == 66, text.bytes[start] == 0x30, text.bytes[start + 1] | 0x20 == 0x78 { start += 2 }
            guard word.end - start == 64, text.bytes[start..<word.end].allSatisfy(DecodingLayers.isHex) else { continue }
            var k = index - 1
            while k >= 0, k >= index - 6 {
                if hexKeyCues.contains(text.words[k].hash) { append(&findings, word.start..<word.end, "hex-key"); break }
                k -= 1
            }
        }
    }

    private static let seedCues = WordSet("""
        seed mnemonic recovery phrase wallet bip39 metamask
        ledger trezor backup words semilla frase graine seedphrase
        """)

    /// A BIP-39-like seed phrase: twelve or more lowercase words of 3–8 letters in a row, nearly all of
    /// them content words, after a seed or wallet word, or alone on their line in a BIP-39 count.
    static func scanSeedPhrases(_ text: TextScan, into findings: inout [Finding]) {
        let words = text.words
        guard words.count >= 12 else { return }
        var i = 0
        while i < words.count {
            var j = i, function = 0
            while j < words.count, isSeedWord(text, words[j]),
                  j == i || (words[j].start - words[j - 1].end == 1 && text.at(words[j].start - 1) == 0x20) {
                if !words[j].lexicon.isDisjoint(with: [.english, .notAValue, .copula, .firstPerson]) { function += 1 }
                j += 1
            }
            let count = j - i
            // Prose is full of function words; a seed phrase has few ("thank", "about" are BIP-39 words).
            if count >= 12, function <= count / 4 {
                var cue = false
                // The cue may open the run itself ("recovery phrase anger artwork …").
                for k in max(0, i - 8)..<min(j, i + 3) where seedCues.contains(words[k].hash) { cue = true }
                let lineStart = i == 0 || text.bytes[words[i - 1].end..<words[i].start].contains(0x0A)
                let lineEnd = j == words.count || text.bytes[words[j - 1].end..<words[j].start].contains(0x0A)
                if cue || ([12, 15, 18, 21, 24].contains(count) && lineStart && lineEnd && function <= 1) {
                    append(&findings, words[i].start..<words[j - 1].end, "seed-phrase")
                }
            }
            i = max(j, i + 1)
        }
    }

    private static func isSeedWord(_ text: TextScan, _ word: TextScan.Word) -> Bool {
        word.length >= 3 && word.length <= 8 && word.letters == word.length && text.bytes[word.start..<word.end].allSatisfy(ByteClass.isLower)
    }

    private static let backupCues = WordSet("""
        backup recovery 2fa mfa otp codes
        scratch twofactor sicherungscodes wiederherstellungscodes respaldo secours
        """)

    /// 2FA backup codes: after a backup or recovery word, three or more codes of one shape
    /// (4–10 characters with digits, grouped or not).
    static func scanBackupCodes(_ text: TextScan, into findings: inout [Finding]) {
        guard text.digitCount >= 8, let cueIndex = text.words.firstIndex(where: { backupCues.contains($0.hash) }) else { return }
        var codes = 0, first: Int?, last = 0
        for word in text.words[(cueIndex + 1)...] where word.digits >= 2 && word.length >= 4 && word.length <= 10 {
            let bytes = text.bytes[word.start..<word.end]
            guard bytes.allSatisfy({ ByteClass.isDigit($0) || ByteClass.isLower($0) }) || bytes.allSatisfy(ByteClass.isDigit) else { continue }
            codes += 1; first = first ?? word.start; last = word.end
        }
        if codes >= 6, let first { append(&findings, first..<last, "backup-codes") }
    }

    private static let codeWords = WordSet("""
        code codes combination combo pin passcode codigo
        codice kod kode koodi код keycode doorcode
        """)
    private static let accessPlaces = WordSet("""
        alarm garage door gate safe keypad lock entry access building house home front padlock locker alarmanlage tur haustur \
        tor tresor portail porte cadenas coffre alarme puerta alarma caja cancello allarme cassaforte porta portao cofre deur kluis
        """)

    /// Alarm, door, garage and safe codes: a code word with a place word in the same sentence and 3–8
    /// digits (grouped, or ending in '#') among the five words after the code word.
    static func scanAccessCodes(_ text: TextScan, into findings: inout [Finding]) {
        guard text.digitCount >= 3 else { return }
        let words = text.words
        for (index, word) in words.enumerated() where codeWords.contains(word.hash) {
            var place = false
            var k = index - 1
            while k >= 0, k >= index - 5, words[k].sentence == word.sentence { if accessPlaces.contains(words[k].hash) { place = true }; k -= 1 }
            k = index + 1
            while k < words.count, k <= index + 5, words[k].sentence == word.sentence, !place {
                if accessPlaces.contains(words[k].hash) { place = true }
                k += 1
            }
            guard place else { continue }
            k = index + 1
            while k < words.count, k <= index + 6, words[k].sentence == word.sentence {
                if words[k].isNumber {
                    var end = words[k].end, digits = words[k].digits
                    while text.at(end) == 0x2D, ByteClass.isDigit(text.at(end + 1)), k + 1 < words.count {
                        k += 1; end = words[k].end; digits += words[k].digits
                    }
                    if (3...8).contains(digits) { append(&findings, word.start..<end, "access-code") }
                    break
                }
                k += 1
            }
        }
    }

    private static func hasDotSlash(_ text: TextScan) -> Bool {
        text.bytes.withUnsafeBufferPointer { bytes in
            var i = 1
            while i < bytes.count { if bytes[i] == 0x2F, bytes[i - 1] != 0x2F { return true }; i += 1 }
            return false
        }
    }

    private static func find(_ text: TextScan, _ needle: [UInt8], from start: Int) -> Int? {
        let bytes = text.bytes
        guard needle.count <= bytes.count else { return nil }
        var i = start
        let first = needle[0]
        while i + needle.count <= bytes.count {
            if bytes[i] == first, bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
