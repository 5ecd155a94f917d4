import Foundation
import Testing
@testable import SwitchboardCore

/// Normalization that folds whole classes (every Nd digit, look-alike letters, unusual separators) and
/// the decoding layers; each case is built from a class (all digit scripts, all look-alikes), not one phrase.
@Suite struct EvasionNormalizationTests {
    func normalized(_ text: String) -> String { String(decoding: NormalizedText(text).bytes, as: UTF8.self) }
    func level(_ text: String) throws -> PrivacyLevel { try ContentAnalyzer().analyze(GenerationRequest(prompt: text)).privacy }

    /// Every decimal digit zero of Unicode (found by property, not listed) starts a run that normalizes to ASCII.
    @Test func everyDecimalDigitScriptFolds() throws {
        var zeros: [Unicode.Scalar] = []
        for value in UInt32(0x80)...UInt32(0x1FBFF) {
            guard let scalar = Unicode.Scalar(value), scalar.properties.numericType == .decimal, scalar.properties.numericValue == 0,
                  let nine = Unicode.Scalar(value + 9), nine.properties.numericValue == 9 else { continue }
            zeros.append(scalar)
        }
        #expect(zeros.count >= 50)
        for zero in zeros {
            let digits = "4111111111111111".unicodeScalars.map { Unicode.Scalar(zero.value + $0.value - 0x30)! }
            var text = "card "
            text.unicodeScalars.append(contentsOf: digits)
            #expect(normalized(text) == "card 4111111111111111", "U+\(String(zero.value, radix: 16))")
            #expect(try level(text) == .sensitive, "U+\(String(zero.value, radix: 16))")
        }
    }

    @Test func confusablesFoldInMixedScriptWordsOnly() throws {
        #expect(normalized("p\u{0430}ssw\u{043E}rd") == "password")  // Cyrillic а, о
        #expect(normalized("\u{0440}\u{0430}\u{0455}\u{0455}\u{051D}\u{043E}\u{0433}\u{0501}") != "пароль")
        #expect(normalized("PASSW\u{041E}RD") == "PASSWORD")  // capitals keep their case
        #expect(normalized("\u{1D429}\u{1D41A}\u{1D42C}\u{1D42C}") == "pass")  // mathematical bold
        #expect(normalized("м\u{043E}й пароль") == "мой пароль")  // ordinary Russian is left alone
        #expect(normalized("pa\u{03C3}\u{03C3}word") == "password")  // Greek σ
        // Offsets still point at the user's text.
        let text = "my p\u{0430}ssw\u{043E}rd is blu3sky"
        let analysis = try ContentAnalyzer().analyze(GenerationRequest(prompt: text))
        let secret = try #require(analysis.entities.first { $0.kind == .secret })
        #expect(String(decoding: Array(text.utf8)[secret.range], as: UTF8.self).hasPrefix("p\u{0430}ssw\u{043E}rd"))
    }

    @Test func unusualSeparatorsJoinDigitGroups() throws {
        for separator in ["\u{2800}", "\u{2022}", "\u{00B7}", "\u{2219}", "*", "~", "|", " / ", "\u{30FB}", "\u{2043}", "\u{25CF}"] {
            #expect(try level("card 4111\(separator)1111\(separator)1111\(separator)1111") == .sensitive, "\(separator.debugDescription)")
        }
        // Clause punctuation does not join: a list of numbers stays a list.
        #expect(try level("Sort these: 4111, 1111, 2222, 3333") == .public)
    }

    @Test func decodingLayers() throws {
        let secret = "my password is hunter22"
        let hex = secret.utf8.map { String(format: "%02x", $0) }
        #expect(try level(hex.joined()) == .sensitive)
        #expect(try level(hex.joined(separator: " ")) == .sensitive)
        #expect(try level(hex.map { "\\x" + $0 }.joined()) == .sensitive)
        #expect(try level(secret.utf8.map { String(format: "%%%02X", $0) }.joined()) == .sensitive)
        #expect(try level(secret.unicodeScalars.map { "&#\($0.value);" }.joined()) == .sensitive)
        #expect(try level(secret.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()) == .sensitive)
        let rot13 = String(String.UnicodeScalarView(secret.unicodeScalars.map { Unicode.Scalar(DecodingLayers.rotate(UInt8($0.value))) }))
        #expect(try level(rot13) == .sensitive)
        #expect(try level("my card backwards: " + String("4111 1111 1111 1111".reversed())) == .sensitive)
        #expect(try level("my p a s s w o r d is hunter2") == .sensitive)
        #expect(try level("SSN O78-O5-ll2O") == .sensitive)
        // Innocuous encodings stay public: a hash, a UUID, base64 and hex of a harmless phrase.
        #expect(try level("commit 3f2a9c1b7d8e4f6a0b5c2d9e1f3a7b8c4d6e0f12") == .public)
        #expect(try level("hex " + "hello world, how are you".utf8.map { String(format: "%02x", $0) }.joined()) == .public)
        #expect(try level("rot13 of hello is uryyb") == .public)
    }

    /// Digit words of every language in `SpelledNumberRecognizer.digitWords`, read out as a Luhn-valid card.
    @Test func spelledDigitsInManyLanguages() throws {
        for line in SpelledNumberRecognizer.digitWords {
            let words = line.split(separator: " ").map(String.init)
            guard words[1] != "_", words[4] != "_" else { continue }
            let card = "4111111111111111".map { words[Int(String($0))!] }.joined(separator: " ")
            #expect(try level("visa " + card) == .sensitive, "\(line)")
        }
        #expect(try level("uno dos tres cuatro cinco seis siete ocho nueve") == .public)
    }

    @Test func passwordWordsInManyLanguages() throws {
        for phrase in ["minha senha é abacaxi42", "mijn wachtwoord is Fietsen88", "moje hasło to Kotek123", "şifrem: Istanbul34",
                       "mitt lösenord är Sommar2023", "salasana: Kissa2020", "heslo je Praha2021", "jelszó: Budapest88",
                       "kata sandi saya: Jakarta45", "كلمة المرور: Cairo2021x", "मेरा पासवर्ड Delhi2020 है"] {
            #expect(try level(phrase) == .sensitive, "\(phrase)")
        }
        #expect(try level("o que é uma senha forte?") == .public)
    }
}

/// New secret shapes, and the placeholders and references that are not secrets.
@Suite struct SecretShapeTests {
    func level(_ text: String) throws -> PrivacyLevel { try ContentAnalyzer().analyze(GenerationRequest(prompt: text)).privacy }
    func random(_ count: Int, _ alphabet: String = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", seed: UInt64) -> String {
        var state = seed
        let characters = Array(alphabet)
        return String((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return characters[Int((state >> 33) % UInt64(characters.count))]
        })
    }

    @Test func shapes() throws {
        let b64 = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).base64EncodedString()
        #expect(try level("AccountName=acct;AccountKey=\(b64);EndpointSuffix=core.windows.net") == .sensitive)
        #expect(try level("https://a.blob.core.windows.net/c?sp=r&sig=\(random(43, seed: 1))%3D") == .sensitive)
        #expect(try level("https://hooks.slack.com/services/T\(random(8, seed: 2))/B\(random(8, seed: 3))/\(random(24, seed: 4))") == .sensitive)
        #expect(try level("{\"auths\":{\"r.io\":{\"auth\":\"\(Data("bob:S3cretPass!".utf8).base64EncodedString())\"}}}") == .sensitive)
        #expect(try level("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW") == .sensitive)
        #expect(try level("\(123_456_789):\(random(35, seed: 5))") == .sensitive)
        #expect(try level("wallet private key \(random(64, "0123456789abcdef", seed: 6))") == .sensitive)
        #expect(try level("PrivateKey = \(Data((0..<32).map { UInt8($0 * 7) }).base64EncodedString())") == .sensitive)
        #expect(try level("the garage code is 7391") == .sensitive)
        #expect(try level("backup codes: 8372-1946 5520-7731 1093-4482") == .sensitive)
        let words = ["anger", "artwork", "another", "acoustic", "adult", "alter", "airport", "access", "arch", "absorb", "author", "awake"]
        #expect(try level("seed phrase: " + words.joined(separator: " ")) == .sensitive)
        #expect(try level(words.joined(separator: " ")) == .sensitive)
    }

    @Test func placeholdersAndReferencesAreNotSecrets() throws {
        for text in ["password: <password>", "api_key = \"your-api-key-here\"", "token = os.environ[\"GITHUB_TOKEN\"]", "export PGPASSWORD=$DB_PASS",
                     "password: ${POSTGRES_PASSWORD}", "const key = process.env.OPENAI_API_KEY;", "regex AKIA[0-9A-Z]{16}",
                     "password: xxxx", "api key: ****************", "password=YOUR_PASSWORD_HERE", "client_secret = settings.CLIENT_SECRET",
                     "the default password is changeme", "AccountKey=<storage-account-key>", "redis://:${REDIS_PASSWORD}@localhost:6379",
                     "docker login -u user -p $REGISTRY_TOKEN registry.example.com", "https://hooks.slack.com/services/XXXXX/XXXXX/XXXXX"] {
            #expect(try level(text) < .sensitive, "\(text)")
        }
        #expect(try level("my password is changeme") == .sensitive)
    }
}

/// `analyze` reasons, the entity cap and bounded cost on adversarial input.
@Suite struct AnalyzerLimitsTests {
    @Test func reasonsNameTheRecognizerAndTheCapKeepsTheLevel() throws {
        let analyzer = ContentAnalyzer(configuration: AnalyzerConfiguration(maxEntities: 10))
        let text = String(repeating: "password: hunter22 ", count: 500)
        let analysis = try analyzer.analyze(GenerationRequest(prompt: text))
        #expect(analysis.privacy == .sensitive)
        #expect(analysis.entities.count == 10)
        #expect(analysis.omittedEntities >= 490)
        #expect(analysis.entities.allSatisfy { $0.recognizer == "secret" })
        let id = try ContentAnalyzer().analyze(GenerationRequest(prompt: "Il mio codice fiscale è RSSMRA85T10A562S"))
        #expect(id.entities.map(\.recognizer) == ["identity:it-cf"])
    }

    /// Generous bounds for a debug build; the release figures are in Docs/Privacy.md.
    @Test(arguments: ["password: ", "4111 ", "a ", "1", "%41", "&#65;", "p a s s ", "ab12 ", "\u{0430}", "senha é x1 ", "0x4f "])
    func adversarialInputStaysBounded(_ unit: String) throws {
        let text = String(repeating: unit, count: (1 << 19) / unit.utf8.count)
        let clock = ContinuousClock()
        var analysis: RequestAnalysis?
        let elapsed = clock.measure { analysis = try? ContentAnalyzer().analyze(GenerationRequest(prompt: text)) }
        #expect(elapsed < .seconds(30), "\(unit.debugDescription): \(elapsed)")
        #expect((analysis?.entities.count ?? 0) <= 256)
    }
}
