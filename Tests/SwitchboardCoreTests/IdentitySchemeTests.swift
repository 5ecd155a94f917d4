import Testing
@testable import SwitchboardCore

/// Valid numbers are generated here with each scheme's published formula, written independently of
/// `IdentityChecksums`/`IdentitySchemes`; the validator must accept them and reject every one-digit change
/// of the check digit.
@Suite struct IdentitySchemeTests {
    /// Deterministic digits (a 64-bit LCG), so failures reproduce.
    struct Digits {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int> = 0...9) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
        mutating func digits(_ count: Int) -> [Int] { (0..<count).map { _ in next() } }
    }

    func scheme(_ id: String) throws -> IdentityScheme { try #require(IdentityScheme.all.first { $0.id == id }) }

    func text(_ digits: [Int]) -> String { digits.map(String.init).joined() }

    /// The scheme accepts `number` and rejects it with its last character changed to each other digit.
    func expectValid(_ id: String, _ number: String, checkAt position: Int? = nil) throws {
        let s = try scheme(id)
        let compact = Array(number.utf8)
        #expect(s.matchesPattern(compact) && s.validate(compact), "\(id) \(number)")
        let at = position ?? compact.count - 1
        guard ByteClass.isDigit(compact[at]) else { return }
        for replacement in UInt8(0x30)...UInt8(0x39) where replacement != compact[at] {
            var wrong = compact
            wrong[at] = replacement
            #expect(!s.validate(wrong), "\(id) accepted \(String(decoding: wrong, as: UTF8.self))")
        }
    }

    func luhnDigit(_ body: [Int]) -> Int {
        var sum = 0
        for (i, d) in body.reversed().enumerated() { sum += i % 2 == 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d }
        return (10 - sum % 10) % 10
    }

    @Test func luhnSchemes() throws {
        var r = Digits(state: 1)
        for _ in 0..<20 {
            let sin = [r.next(1...7)] + r.digits(7)
            try expectValid("ca-sin", text(sin + [luhnDigit(sin)]))
            let imei = [3, 5] + r.digits(12)
            try expectValid("imei", text(imei + [luhnDigit(imei)]))
            let saudi = [r.next(1...2)] + r.digits(8)
            try expectValid("sa-id", text(saudi + [luhnDigit(saudi)]))
            let za = [8, 5, 0, r.next(1...9), 1, r.next(1...9)] + r.digits(4) + [0, 8]
            try expectValid("za-id", text(za + [luhnDigit(za)]))
        }
    }

    @Test func weightedModulusSchemes() throws {
        var r = Digits(state: 2)
        for _ in 0..<20 {
            // Brazil CPF: two mod-11 digits, weights 10…2 then 11…2.
            var cpf = r.digits(9)
            cpf.append((zip(cpf, (2...10).reversed()).map(*).reduce(0, +) * 10) % 11 % 10)
            cpf.append((zip(cpf, (2...11).reversed()).map(*).reduce(0, +) * 10) % 11 % 10)
            if Set(cpf).count > 1 { try expectValid("br-cpf", text(cpf)) }
            // Poland PESEL: weights 1 3 7 9, check = (10 − Σ mod 10) mod 10.
            var pesel = [8, 5, 0, r.next(1...9), 1, r.next(1...9)] + r.digits(4)
            pesel.append((10 - zip(pesel, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]).map(*).reduce(0, +) % 10) % 10)
            try expectValid("pl-pesel", text(pesel))
            // Turkey TC Kimlik.
            var tc = [r.next(1...9)] + r.digits(8)
            tc.append(((tc[0] + tc[2] + tc[4] + tc[6] + tc[8]) * 7 - (tc[1] + tc[3] + tc[5] + tc[7]) + 100) % 10)
            tc.append(tc.reduce(0, +) % 10)
            try expectValid("tr-tckn", text(tc))
            // Russia INN (12 digits).
            var inn = r.digits(10)
            inn.append(zip(inn, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]).map(*).reduce(0, +) % 11 % 10)
            inn.append(zip(inn, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]).map(*).reduce(0, +) % 11 % 10)
            try expectValid("ru-inn", text(inn))
            // Dutch BSN: 11-proof.
            let bsnBody = [r.next(1...9)] + r.digits(7)
            let bsnSum = zip(bsnBody, [9, 8, 7, 6, 5, 4, 3, 2]).map(*).reduce(0, +)
            if bsnSum % 11 < 10 { try expectValid("nl-bsn", text(bsnBody + [bsnSum % 11])) }
            // Korea RRN.
            var rrn = [8, 5, 0, r.next(1...9), 1, r.next(1...9), r.next(1...2)] + r.digits(5)
            rrn.append((11 - zip(rrn, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]).map(*).reduce(0, +) % 11) % 10)
            try expectValid("kr-rrn", text(rrn))
            // Romania CNP.
            var cnp = [r.next(1...2), 8, 5, 0, r.next(1...9), 1, r.next(1...9), 1, r.next(0...9)] + r.digits(3)
            let cnpSum = zip(cnp, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]).map(*).reduce(0, +) % 11
            cnp.append(cnpSum == 10 ? 1 : cnpSum)
            try expectValid("ro-cnp", text(cnp))
        }
    }

    @Test func mod97AndLetterSchemes() throws {
        var r = Digits(state: 3)
        for _ in 0..<20 {
            // France NIR: key = 97 − (13 digits mod 97).
            let nir = [r.next(1...2), 8, r.next(0...9), 0, r.next(1...9), 7, 5] + r.digits(6)
            let nirValue = nir.reduce(0) { $0 * 10 + $1 }
            try expectValid("fr-nir", text(nir) + String(format: "%02d", 97 - nirValue % 97))
            // Belgium (born before 2000).
            let be = [8, r.next(0...9), 0, r.next(1...9), 1, r.next(1...9)] + r.digits(3)
            let beValue = be.reduce(0) { $0 * 10 + $1 }
            try expectValid("be-nn", text(be) + String(format: "%02d", 97 - beValue % 97))
            // Spain DNI.
            let dni = r.digits(8)
            let letters = Array("TRWAGMYFPDXBNJZSQVHLCKE")
            try expectValid("es-dni", text(dni) + String(letters[dni.reduce(0) { $0 * 10 + $1 } % 23]))
        }
    }

    @Test func iso7064AndVerhoeff() throws {
        // ISO 7064 MOD 11,10 computed the long way for Croatian OIB bodies.
        var r = Digits(state: 4)
        for _ in 0..<20 {
            let body = r.digits(10)
            var p = 10
            for d in body { var s = (d + p) % 10; if s == 0 { s = 10 }; p = (2 * s) % 11 }
            try expectValid("hr-oib", text(body + [(11 - p) % 10]))
        }
        // Published Verhoeff example: 236 has check digit 3; the Aadhaar test number 234123412346.
        #expect(IdentityChecksums.verhoeff(Array("2363".utf8)))
        #expect(!IdentityChecksums.verhoeff(Array("2364".utf8)))
        try expectValid("in-aadhaar", "234123412346")
    }

    @Test func chineseAndItalianAndVIN() throws {
        // China: ISO 7064 MOD 11-2 with weights 2^(17−i) mod 11.
        var r = Digits(state: 5)
        for _ in 0..<20 {
            let body = [r.next(1...6)] + r.digits(5) + [1, 9, 8, r.next(0...9), 0, r.next(1...9), 1, r.next(0...8)] + r.digits(3)
            var sum = 0
            for (i, d) in body.enumerated() { sum += d * (1 << (17 - i)) % 11 }
            let check = (12 - sum % 11) % 11
            try expectValid("cn-id", text(body) + (check == 10 ? "X" : String(check)))
        }
        // Published examples: the Agenzia delle Entrate sample code and the VIN of ISO 3779 examples.
        #expect(ItalianFiscalCode.isValid(Array("RSSMRA85T10A562S".utf8)))
        #expect(!ItalianFiscalCode.isValid(Array("RSSMRA85T10A562T".utf8)))
        #expect(VehicleIdentification.isValid(Array("1HGCM82633A004352".utf8)))
        #expect(VehicleIdentification.isValid(Array("1M8GDM9AXKP042788".utf8)))
        #expect(!VehicleIdentification.isValid(Array("1HGCM82623A004352".utf8)))
    }

    @Test func routingNumbers() {
        // 3-7-1 weights over the nine digits, computed here for random bodies with a valid prefix.
        var r = Digits(state: 6)
        for _ in 0..<20 {
            let body = [0, r.next(1...9)] + r.digits(6)
            let partial = 3 * (body[0] + body[3] + body[6]) + 7 * (body[1] + body[4] + body[7]) + body[2] + body[5]
            let check = (10 - partial % 10) % 10
            let text = "routing \(body.map(String.init).joined())\(check) account 12345678"
            #expect(BankAccountRecognizer.findings(in: text).map(\.kind) == [.bankAccount], "\(text)")
            let wrong = "routing \(body.map(String.init).joined())\((check + 1) % 10) account 12345678"
            #expect(BankAccountRecognizer.findings(in: wrong).isEmpty, "\(wrong)")
        }
        #expect(BankAccountRecognizer.findings(in: "What bank has routing number 021000021?").isEmpty)
        #expect(BankAccountRecognizer.findings(in: "BIC DEUTDEFF account 90547116").map(\.kind) == [.bankAccount])
        #expect(BankAccountRecognizer.findings(in: "The SWIFT code of Deutsche Bank is DEUTDEFF").isEmpty)
    }

    @Test func tableCoversTheSchemesAndContextDecides() throws {
        #expect(IdentityScheme.all.count >= 45)
        #expect(Set(IdentityScheme.all.map(\.id)).count == IdentityScheme.all.count)
        // A valid Luhn SIN (not starting 0: "046 454 286" is the unassigned textbook example) needs its words or its
        // format; "order" lowers a bare number.
        #expect(IdentityNumberRecognizer.findings(in: "My SIN is 130692544").map(\.kind) == [.nationalID])
        #expect(IdentityNumberRecognizer.findings(in: "order 130692544 shipped").isEmpty)
        // An IMEI is a device, not a card.
        let analysis = try ContentAnalyzer().analyze(GenerationRequest(prompt: "IMEI: 356938035643809"))
        #expect(analysis.privacy == .personal)
        #expect(analysis.entities.map(\.kind) == [.deviceID])
    }
}
