import Testing
import SwitchboardCore

@Suite struct RecognizerTests {
    func kinds<R: Recognizer>(_ recognizer: R.Type, _ text: String) -> [EntityKind] {
        recognizer.findings(in: text).map(\.kind)
    }

    func matched<R: Recognizer>(_ recognizer: R.Type, _ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return recognizer.findings(in: text).map { String(decoding: bytes[$0.range], as: UTF8.self) }
    }

    @Test func cardRangeCoversTheDigits() {
        #expect(matched(NumberRecognizer.self, "pay with 4111-1111-1111-1111 today") == ["4111-1111-1111-1111"])
    }

    @Test func cardNeedsLuhn() {
        #expect(kinds(NumberRecognizer.self, "card 4111 1111 1111 1112").isEmpty)
        #expect(kinds(NumberRecognizer.self, "card 4111 1111 1111 1111") == [.paymentCard])
    }

    @Test func luhnValidNumberWithoutIssuerPrefixNeedsCardWords() {
        // 9 is no card issuer's prefix; 9999999999999995 passes Luhn.
        #expect(kinds(NumberRecognizer.self, "ref 9999999999999995").isEmpty)
        #expect(kinds(NumberRecognizer.self, "credit card 9999999999999995") == [.paymentCard])
    }

    @Test func cardInsideALongerNumberOrDecimalIsIgnored() {
        #expect(kinds(NumberRecognizer.self, "x4111111111111111").isEmpty)
        #expect(kinds(NumberRecognizer.self, "pi is 3.4111111111111111").isEmpty)
    }

    @Test(arguments: ["000-12-3456", "666-12-3456", "912-12-3456", "123-00-4567", "123-45-0000"])
    func invalidSSNsAreRejected(_ text: String) {
        #expect(kinds(NumberRecognizer.self, "SSN \(text)").contains(.nationalID) == false)
    }

    @Test func ssnWithoutDashesNeedsContext() {
        #expect(kinds(NumberRecognizer.self, "ref 123456789").contains(.nationalID) == false)
        #expect(kinds(NumberRecognizer.self, "my ssn 123456789").contains(.nationalID))
        #expect(kinds(NumberRecognizer.self, "filed under 123-45-6789") == [.nationalID])
    }

    @Test func phoneFormats() {
        #expect(matched(NumberRecognizer.self, "call +1 415 555 0100 now") == ["+1 415 555 0100"])
        #expect(matched(NumberRecognizer.self, "at (415) 555-0100.") == ["(415) 555-0100"])
        #expect(kinds(NumberRecognizer.self, "415.555.0100") == [.phone])
        #expect(kinds(NumberRecognizer.self, "2+2=4").isEmpty)
        #expect(kinds(NumberRecognizer.self, "10.0.0.1 and 2024-01-15").isEmpty)
    }

    @Test func ibanNeedsValidCheckDigits() {
        #expect(kinds(IBANRecognizer.self, "DE89 3704 0044 0532 0130 00") == [.iban])
        #expect(kinds(IBANRecognizer.self, "DE88 3704 0044 0532 0130 00").isEmpty)
        #expect(matched(IBANRecognizer.self, "to GB82WEST12345698765432, thanks") == ["GB82WEST12345698765432"])
        #expect(matched(IBANRecognizer.self, "DE89 3704 0044 0532 0130 00 is mine") == ["DE89 3704 0044 0532 0130 00"])
    }

    @Test func keyFormats() {
        #expect(kinds(SecretRecognizer.self, "AKIAIOSFODNN7EXAMPLE") == [.secret])
        #expect(kinds(SecretRecognizer.self, "AKIAIOSFODNN7EXAMPLEX").isEmpty, "21 characters is not an access key id")
        #expect(kinds(SecretRecognizer.self, "sk-short").isEmpty)
        #expect(kinds(SecretRecognizer.self, "task-abcdefghijklmnopqrstuv").isEmpty, "prefix must start a word")
        #expect(kinds(SecretRecognizer.self, "ghp_abc").isEmpty)
        #expect(kinds(SecretRecognizer.self, "-----BEGIN PUBLIC KEY-----").isEmpty)
    }

    @Test func passwordPhrases() {
        #expect(matched(SecretRecognizer.self, "password: hunter2") == ["password: hunter2"])
        #expect(kinds(SecretRecognizer.self, "my password is not working").isEmpty)
        #expect(kinds(SecretRecognizer.self, "forgot my password").isEmpty)
        #expect(kinds(SecretRecognizer.self, "pin: abcd").isEmpty, "a PIN is digits")
        #expect(kinds(SecretRecognizer.self, "api key: short").isEmpty)
        #expect(kinds(SecretRecognizer.self, "my api key is currently unavailable").isEmpty)
        #expect(kinds(SecretRecognizer.self, "access token = abcdefghijklmnopqrst") == [.secret])
    }

    @Test func passportNeedsAnIdNearby() {
        #expect(kinds(IdentityRecognizer.self, "my passport expires in 2029").isEmpty)
        #expect(kinds(IdentityRecognizer.self, "passport 123456789") == [.passport])
        #expect(kinds(IdentityRecognizer.self, "passport. Later, 123456789").isEmpty, "another sentence")
    }

    @Test func healthNeedsAPerson() {
        #expect(kinds(HealthRecognizer.self, "What are the symptoms of diabetes?").isEmpty)
        #expect(kinds(HealthRecognizer.self, "Is insulin expensive?").isEmpty)
        #expect(kinds(HealthRecognizer.self, "I have a question about diabetes").isEmpty)
        #expect(kinds(HealthRecognizer.self, "I have diabetes").contains(.health))
        #expect(kinds(HealthRecognizer.self, "Maria takes lithium daily").contains(.health))
        #expect(kinds(HealthRecognizer.self, "I work on cancer research").isEmpty)
        #expect(kinds(HealthRecognizer.self, "He is on insulin").contains(.health))
    }

    @Test func emails() {
        #expect(matched(EmailRecognizer.self, "write a.b+c@sub.example.org.") == ["a.b+c@sub.example.org"])
        #expect(kinds(EmailRecognizer.self, "ping @alice on slack").isEmpty)
        #expect(kinds(EmailRecognizer.self, "root@localhost").isEmpty)
        #expect(kinds(EmailRecognizer.self, "x@y.z1").isEmpty)
    }

    @Test func personalContextLevels() {
        let weak = PersonalRecognizer.findings(in: "my wife likes tea")
        #expect(weak.map(\.level) == [.contextual])
        let strong = PersonalRecognizer.findings(in: "my address is 5 Elm")
        #expect(strong.map(\.level).contains(.personal))
        #expect(PersonalRecognizer.findings(in: "I walked 5 miles down the road").isEmpty)
    }

    @Test func dateOfBirthNeedsADate() {
        #expect(kinds(PersonalRecognizer.self, "born in the spring").isEmpty)
        #expect(kinds(PersonalRecognizer.self, "DOB 07.14.1990") == [.dateOfBirth])
    }

    @Test func sentencesAndWords() {
        let scan = TextScan("I’m here. Passport no. X12. Next")
        #expect(scan.words.count == 6)
        #expect(scan.words[0].lexicon.contains(.firstPerson), "typographic apostrophe is folded")
        #expect(scan.words[2].sentence == 1 && scan.words[4].sentence == 1, "\"no.\" does not end a sentence")
        #expect(scan.words[5].sentence == 2)
    }

    @Test func scannersSurviveHostileInput() {
        let inputs = ["", "@", "+", "(", "-----BEGIN ", "4", "DE89", "sk-", "password:", "passport",
                      String(repeating: "9", count: 10_000), String(repeating: "@.", count: 500),
                      "\u{FFFD}\u{0}\u{7F}", "é" + String(repeating: "\u{301}", count: 50), "my", "I live",
                      "eyJ", "eyJ.", "Basic ", "://", ":// @", "mysql -p", "-p", "password: \"", "<password>", "密码",
                      String(repeating: " -p x", count: 2_000) + " mysql", String(repeating: "card one ", count: 500)]
        for input in inputs {
            var findings: [Finding] = []
            let scan = TextScan(input)
            NumberRecognizer.scan(scan, into: &findings); IBANRecognizer.scan(scan, into: &findings)
            SecretRecognizer.scan(scan, into: &findings); IdentityRecognizer.scan(scan, into: &findings)
            HealthRecognizer.scan(scan, into: &findings); EmailRecognizer.scan(scan, into: &findings)
            PersonalRecognizer.scan(scan, into: &findings); SpelledNumberRecognizer.scan(scan, into: &findings)
            #expect(findings.allSatisfy { $0.range.upperBound <= scan.bytes.count })
        }
    }
}
