/// The scheme table: national identity and tax numbers of the EU member states and the G20 (and a few
/// neighbours), health-insurance numbers, driving licences, IMEI and VIN. Each row cites its rule; the
/// check-digit arithmetic is in `IdentityChecksums`. US SSNs stay in `NumberRecognizer` (dashed shapes),
/// bank account pairs in `BankAccountRecognizer`.
extension IdentityScheme {
    typealias C = IdentityChecksums

    static let all: [IdentityScheme] = europe + americas + asiaPacific + other

    /// Date fields at `at` as YYMMDD (or DDMMYY when `dayFirst`), after the scheme subtracts its offsets.
    static func dateOK(_ s: [UInt8], _ at: Int, dayFirst: Bool = false, monthOffsets: [Int] = [0], dayOffsets: [Int] = [0]) -> Bool {
        let a = C.number(s, at..<at + 2), m = C.number(s, at + 2..<at + 4), b = C.number(s, at + 4..<at + 6)
        let day = dayFirst ? a : b
        return monthOffsets.contains { C.plausibleDate(month: m - $0, day: 1) }
            && dayOffsets.contains { C.plausibleDate(month: 1, day: day - $0) }
    }

    static let europe: [IdentityScheme] = [
        // UK National Insurance: two prefix letters, six digits, suffix A–D. No check digit, a narrow shape.
        // HMRC never issues some prefixes (D F I Q U V first, O second, BG GB NK KN TN NT ZZ), but its own
        // specimen "QQ 12 34 56 C" is what people paste as test data: the prefix is not checked.
        IdentityScheme("uk-nino", lengths: [9], patterns: ["AA999999A"], check: .none, structure: 2, formats: ["## ## ## ## #"],
                       context: "nino ni insurance hmrc nin nics british uk") { s in (0x41...0x44).contains(s[8]) },
        // German Steuer-ID: 11 digits, no leading 0, one digit of the first ten repeated (2 or 3 times),
        // ISO 7064 MOD 11,10.
        IdentityScheme("de-steuerid", lengths: [11], patterns: ["99999999999"], check: .weak, structure: 1,
                       formats: ["## ### ### ###"],
                       context: "steuerid steuer idnr steueridentifikationsnummer identifikationsnummer steuernummer tin german deutsche") { s in
            guard s[0] != 0x30 else { return false }
            var counts = [Int](repeating: 0, count: 10)
            for b in s[0..<10] { counts[C.digit(b)] += 1 }
            let repeated = counts.filter { $0 >= 2 }
            return repeated.count == 1 && repeated[0] <= 3 && C.iso7064Mod11_10(s)
        },
        // German social insurance number: area, DDMMYY, initial letter, serial, check (digit sums of
        // weighted digits, the letter as two digits).
        IdentityScheme("de-svnr", lengths: [12], patterns: ["99999999A999"], check: .weak, structure: 2,
                       context: "sozialversicherungsnummer rentenversicherungsnummer rvnr versicherungsnummer svnr german") { s in
            guard dateOK(s, 2, dayFirst: true) else { return false }
            let letter = Int(s[8] &- 0x40)
            var digits = s[0..<8].map { C.digit($0) } + [letter / 10, letter % 10] + s[9..<11].map { C.digit($0) }
            let weights = [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1]
            var sum = 0
            for k in 0..<12 { let p = digits[k] * weights[k]; sum += p / 10 + p % 10 }
            digits.removeAll()
            return sum % 10 == C.digit(s[11])
        },
        // German identity card: nine characters and an ICAO 9303 7-3-1 check digit. Context only.
        IdentityScheme("de-personalausweis", lengths: [10], patterns: ["*********9"], check: .weak, structure: 0,
                       context: "personalausweis ausweisnummer ausweis personalausweisnummer german", requiresContext: true) { s in
            let weights = [7, 3, 1]
            var sum = 0
            for k in 0..<9 { sum += C.alnumValue(s[k]) * weights[k % 3] }
            return s.contains(where: ByteClass.isDigit) && sum % 10 == C.digit(s[9])
        },
        // French NIR: sex, YYMM, department (2A/2B in Corsica), commune, order, key = 97 − n mod 97.
        IdentityScheme("fr-nir", lengths: [15], patterns: ["999999999999999", "999999*99999999"],
                       check: .strong, structure: 1, formats: ["# ## ## ## ### ### ##"],
                       context: "nir secu securite sociale insee vitale ss french francais") { s in
            guard [0x31, 0x32, 0x33, 0x37, 0x38].contains(s[0]) else { return false }
            let month = C.number(s, 3..<5)
            guard (1...12).contains(month) || (20...42).contains(month) || (50...99).contains(month) else { return false }
            var n = s
            if n[6] == 0x41 { n[5] = 0x31; n[6] = 0x39 } else if n[6] == 0x42 { n[5] = 0x31; n[6] = 0x38 }
            guard C.allDigits(n[0..<15]) else { return false }
            return 97 - C.mod(n, 0..<13, 97) == C.number(n, 13..<15)
        },
        // Spanish DNI: eight digits and the letter of n mod 23; NIE: X/Y/Z (0/1/2), seven digits, same letter.
        IdentityScheme("es-dni", lengths: [9], patterns: ["99999999A"], check: .strong, structure: 1,
                       context: "dni nif documento identidad spanish espanol") { s in
            Array("TRWAGMYFPDXBNJZSQVHLCKE".utf8)[C.number(s, 0..<8) % 23] == s[8]
        },
        IdentityScheme("es-nie", lengths: [9], patterns: ["A9999999A"], check: .strong, structure: 1,
                       context: "nie extranjero extranjeria spanish") { s in
            guard let lead = [0x58: 0, 0x59: 1, 0x5A: 2][s[0]] else { return false }
            return Array("TRWAGMYFPDXBNJZSQVHLCKE".utf8)[(lead * 10_000_000 + C.number(s, 1..<8)) % 23] == s[8]
        },
        // Italian codice fiscale: surname and name consonants, YY, month letter, day (+40 women),
        // municipality, check letter from the odd/even tables. Omocodia letters may replace digits.
        IdentityScheme("it-cf", lengths: [16], patterns: ["AAAAAA**A**A***A"], check: .strong, structure: 2,
                       context: "codice fiscale cf tessera sanitaria italian italiano fiscal") { s in ItalianFiscalCode.isValid(s) },
        // Dutch BSN: nine digits, 11-proof (weights 9…2 and −1).
        IdentityScheme("nl-bsn", lengths: [9], patterns: ["999999999"], check: .weak, formats: ["####.##.###", "#### ## ###"],
                       context: "bsn burgerservicenummer sofinummer sofi dutch nederland") { s in
            (C.weighted(s, [9, 8, 7, 6, 5, 4, 3, 2]) - C.digit(s[8])) % 11 == 0 && s[0] != 0x30
        },
        // Belgian national number: YYMMDD, serial, 97 − (n mod 97), with a leading 2 for births from 2000.
        IdentityScheme("be-nn", lengths: [11], patterns: ["99999999999"], check: .strong, structure: 1,
                       formats: ["##.##.##-###.##", "## ## ## ### ##", "######-###-##"],
                       context: "rijksregisternummer rijksregister registre national insz niss nn belgian belge") { s in
            guard dateOK(s, 0, monthOffsets: [0, 20, 40]) || C.number(s, 2..<4) == 0 else { return false }
            let check = C.number(s, 9..<11), body = C.number(s, 0..<9)
            return 97 - body % 97 == check || 97 - (2_000_000_000 + body) % 97 == check
        },
        // Danish CPR: DDMMYY-SSSS; the mod-11 rule was dropped in 2007, so only the date and the words.
        IdentityScheme("dk-cpr", lengths: [10], patterns: ["9999999999"], check: .none, structure: 1, formats: ["######-####"],
                       context: "cpr personnummer cprnr danish") { s in dateOK(s, 0, dayFirst: true) },
        // Finnish HETU: DDMMYY, century sign, individual number, check character of the nine digits mod 31.
        // The sign '-' reads as a separator, so the compact form has ten or eleven characters.
        IdentityScheme("fi-hetu", lengths: [10, 11], patterns: ["999999999*", "999999A999*"], check: .strong, structure: 2,
                       formats: ["######-####", "######+####", "###########"],
                       context: "hetu henkilotunnus henkilotunnukseni sotu finnish henkilotunnukseni henkilotunnus") { s in
            guard dateOK(s, 0, dayFirst: true) else { return false }
            if s.count == 11, !"ABCDEFYXWVU".utf8.contains(s[6]) { return false }
            let serial = s.count == 11 ? 7 : 6
            guard C.allDigits(s[serial..<serial + 3]) else { return false }
            let n = C.number(s, 0..<6) * 1000 + C.number(s, serial..<serial + 3)
            return Array("0123456789ABCDEFHJKLMNPRSTUVWXY".utf8)[n % 31] == s[s.count - 1]
        },
        // Norwegian fødselsnummer: DDMMYY (D-numbers day +40), three digits, two mod-11 check digits.
        IdentityScheme("no-fnr", lengths: [11], patterns: ["99999999999"], check: .strong, structure: 1,
                       context: "fodselsnummer fodselsnummeret personnummer dnummer norwegian") { s in
            guard dateOK(s, 0, dayFirst: true, monthOffsets: [0, 40], dayOffsets: [0, 40]) else { return false }
            func k(_ weights: [Int]) -> Int? {
                let r = 11 - C.weighted(s, weights) % 11
                return r == 11 ? 0 : r == 10 ? nil : r
            }
            return k([3, 7, 6, 1, 8, 9, 4, 5, 2]) == C.digit(s[9]) && k([5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) == C.digit(s[10])
        },
        // Swedish personnummer: (YY)YYMMDD, three digits, Luhn over the ten-digit form (day +60 for
        // coordination numbers).
        IdentityScheme("se-personnummer", lengths: [10, 12], patterns: ["9999999999", "999999999999"], check: .weak, structure: 1,
                       formats: ["######-####", "######+####", "########-####"],
                       context: "personnummer samordningsnummer personnumret swedish") { s in
            let ten = Array(s.suffix(10))
            if s.count == 12, !(s[0] == 0x31 && (s[1] == 0x38 || s[1] == 0x39) || s[0] == 0x32 && s[1] == 0x30) { return false }
            return dateOK(ten, 0, dayOffsets: [0, 60]) && C.luhn(ten)
        },
        // Polish PESEL: YYMMDD (month +20/+40/+60/+80 by century), serial, weights 1-3-7-9.
        IdentityScheme("pl-pesel", lengths: [11], patterns: ["99999999999"], check: .weak, structure: 1,
                       context: "pesel polish") { s in
            dateOK(s, 0, monthOffsets: [0, 20, 40, 60, 80])
                && (10 - C.weighted(s, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10) % 10 == C.digit(s[10])
        },
        // Portuguese NIF: nine digits, mod-11 check.
        IdentityScheme("pt-nif", lengths: [9], patterns: ["999999999"], check: .weak,
                       context: "nif contribuinte nipc portuguese fiscal") { s in
            guard "1235689".utf8.contains(s[0]) else { return false }
            let r = C.weighted(s, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
            return (r < 2 ? 0 : 11 - r) == C.digit(s[8])
        },
        // Romanian CNP: sex/century, YYMMDD, county, serial, check with weights 279146358279.
        IdentityScheme("ro-cnp", lengths: [13], patterns: ["9999999999999"], check: .weak, structure: 1,
                       context: "cnp romanian") { s in
            guard s[0] != 0x30, dateOK(s, 1) else { return false }
            let r = C.weighted(s, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11
            return (r == 10 ? 1 : r) == C.digit(s[12])
        },
        // Czech and Slovak birth number: YYMMDD (women month +50, +20/+70 from 2004) / serial; the
        // ten-digit form is divisible by 11.
        IdentityScheme("cz-rc", lengths: [10], patterns: ["9999999999"], check: .weak, structure: 1, formats: ["######/####"],
                       context: "rodne cislo rc czech slovak") { s in
            guard dateOK(s, 0, monthOffsets: [0, 20, 50, 70]) else { return false }
            let r = C.mod(s, 0..<9, 11)
            return C.mod(s, 0..<10, 11) == 0 || (r == 10 && s[9] == 0x30)
        },
        // Bulgarian EGN: YYMMDD (month +20/+40), serial, weights 2 4 8 5 10 9 7 3 6.
        IdentityScheme("bg-egn", lengths: [10], patterns: ["9999999999"], check: .weak, structure: 1,
                       context: "егн egn bulgarian") { s in
            guard dateOK(s, 0, monthOffsets: [0, 20, 40]) else { return false }
            let r = C.weighted(s, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11
            return (r == 10 ? 0 : r) == C.digit(s[9])
        },
        // Croatian OIB: eleven digits, ISO 7064 MOD 11,10.
        IdentityScheme("hr-oib", lengths: [11], patterns: ["99999999999"], check: .weak,
                       context: "oib croatian") { s in C.iso7064Mod11_10(s) },
        // Estonian isikukood and Lithuanian asmens kodas: sex/century, YYMMDD, serial, two-stage mod 11.
        IdentityScheme("ee-lt-personal-code", lengths: [11], patterns: ["99999999999"], check: .weak, structure: 1,
                       context: "isikukood asmens kodas ak estonian lithuanian") { s in
            guard (0x31...0x36).contains(s[0]), dateOK(s, 1) else { return false }
            var r = C.weighted(s, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11
            if r == 10 { r = C.weighted(s, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11; if r == 10 { r = 0 } }
            return r == C.digit(s[10])
        },
        // Latvian personas kods (before 2017): DDMMYY-CNNNX, check (1101 − Σ) mod 11.
        IdentityScheme("lv-personas-kods", lengths: [11], patterns: ["99999999999"], check: .weak, structure: 1,
                       formats: ["######-#####"], context: "personas kods latvian") { s in
            guard dateOK(s, 0, dayFirst: true) else { return false }
            let r = (1101 - C.weighted(s, [1, 6, 3, 7, 9, 10, 5, 8, 4, 2])) % 11
            return r < 10 && r == C.digit(s[10])
        },
        // Greek AMKA: DDMMYY and five digits, Luhn.
        IdentityScheme("gr-amka", lengths: [11], patterns: ["99999999999"], check: .weak, structure: 1,
                       context: "amka αμκα greek") { s in dateOK(s, 0, dayFirst: true) && C.luhn(s) },
        // Irish PPSN: seven digits, check letter (weights 8…2, second letter × 9, mod 23).
        IdentityScheme("ie-ppsn", lengths: [8, 9], patterns: ["9999999A", "9999999AA"], check: .strong, structure: 1,
                       context: "pps ppsn ppsno irish") { s in
            var sum = C.weighted(s, [8, 7, 6, 5, 4, 3, 2])
            if s.count == 9 {
                guard s[8] == 0x57 || (0x41...0x49).contains(s[8]) else { return false }
                sum += (s[8] == 0x57 ? 0 : Int(s[8] &- 0x40)) * 9
            }
            return Array("WABCDEFGHIJKLMNOPQRSTUV".utf8)[sum % 23] == s[7]
        },
        // Austrian social insurance number: serial, check, DDMMYY; weights 3 7 9 _ 5 8 4 2 1 6, mod 11.
        IdentityScheme("at-svnr", lengths: [10], patterns: ["9999999999"], check: .weak, structure: 1, formats: ["#### ######"],
                       context: "svnr sozialversicherungsnummer versicherungsnummer svn austrian") { s in
            guard s[0] != 0x30, dateOK(s, 4, dayFirst: true) else { return false }
            let sum = C.digit(s[0]) * 3 + C.digit(s[1]) * 7 + C.digit(s[2]) * 9 + C.weighted(s, [5, 8, 4, 2, 1, 6], from: 4)
            return sum % 11 < 10 && sum % 11 == C.digit(s[3])
        },
        // Slovenian EMŠO: DDMMYYY, register, serial, mod-11 check (weights 7…2 twice).
        IdentityScheme("si-emso", lengths: [13], patterns: ["9999999999999"], check: .weak, structure: 1,
                       context: "emso slovenian") { s in
            guard dateOK(s, 0, dayFirst: true) else { return false }
            var c = 11 - C.weighted(s, [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
            if c == 11 { c = 0 }
            return c < 10 && c == C.digit(s[12])
        },
        // Hungarian TAJ (health insurance): eight digits, weights 3 and 7, mod 10.
        IdentityScheme("hu-taj", lengths: [9], patterns: ["999999999"], check: .weak, formats: ["### ### ###"],
                       context: "taj tajszam hungarian", requiresContext: true) { s in
            C.weighted(s, [3, 7, 3, 7, 3, 7, 3, 7]) % 10 == C.digit(s[8])
        },
        // Luxembourg matricule: YYYYMMDD, serial, a Luhn digit and a Verhoeff digit.
        IdentityScheme("lu-matricule", lengths: [13], patterns: ["9999999999999"], check: .strong, structure: 1,
                       context: "matricule cns luxembourg") { s in
            let month = C.number(s, 4..<6), day = C.number(s, 6..<8)
            return C.plausibleDate(month: month, day: day) && C.luhn(Array(s[0..<12]))
                && C.verhoeff(Array(s[0..<11]) + [s[12]])
        },
        // Swiss AHV/AVS: 756, nine digits, an EAN-13 check digit.
        IdentityScheme("ch-ahv", lengths: [13], patterns: ["9999999999999"], check: .weak, structure: 2, formats: ["###.####.####.##"],
                       context: "ahv avs ahvnummer sozialversicherung swiss") { s in
            guard s[0] == 0x37, s[1] == 0x35, s[2] == 0x36 else { return false }
            var sum = 0
            for k in 0..<12 { sum += C.digit(s[k]) * (k % 2 == 0 ? 1 : 3) }
            return (10 - sum % 10) % 10 == C.digit(s[12])
        },
        // UK driving licence: surname (padded with 9), decade, month (+50), day, year, initials, a digit
        // and two check characters.
        IdentityScheme("uk-driving-licence", lengths: [16], patterns: ["*****999999**9**"], check: .none, structure: 2,
                       context: "licence license driving dvla driver drivers") { s in
            let month = C.number(s, 6..<8)
            return s[0..<5].allSatisfy { ByteClass.isUpper($0) || $0 == 0x39 } && ByteClass.isUpper(s[0])
                && ((1...12).contains(month) || (51...62).contains(month)) && (1...31).contains(C.number(s, 8..<10))
                && s[11..<13].allSatisfy { ByteClass.isUpper($0) || $0 == 0x39 }
        },
    ]

    static let americas: [IdentityScheme] = [
        // Canadian SIN: nine digits, Luhn, not starting 0 or 8.
        IdentityScheme("ca-sin", lengths: [9], patterns: ["999999999"], check: .weak, formats: ["###-###-###", "### ### ###"],
                       context: "sin nas insurance assurance sociale canadian canada") { s in
            s[0] != 0x30 && s[0] != 0x38 && C.luhn(s)
        },
        // US EIN: two-digit campus prefix and seven digits; no check digit.
        IdentityScheme("us-ein", lengths: [9], patterns: ["999999999"], check: .none, formats: ["##-#######"],
                       context: "ein fein employer irs", requiresContext: true) { s in
            let prefix = C.number(s, 0..<2)
            return ![0, 7, 8, 9, 17, 18, 19, 28, 29, 49, 69, 70, 78, 79, 89, 96, 97].contains(prefix)
        },
        // US ITIN: 9XX-GG-SSSS with group 50–65, 70–88, 90–92, 94–99.
        IdentityScheme("us-itin", lengths: [9], patterns: ["999999999"], check: .none, structure: 1, formats: ["###-##-####", "### ## ####"],
                       context: "itin taxpayer irs") { s in
            let group = C.number(s, 3..<5)
            return s[0] == 0x39 && ((50...65).contains(group) || (70...88).contains(group) || (90...92).contains(group)
                || (94...99).contains(group))
        },
        // US Medicare Beneficiary Identifier: C A AN N A AN N A A N N, letters without S L O I B Z.
        IdentityScheme("us-mbi", lengths: [11], patterns: ["9A*9A*9AA99"], check: .none, structure: 2, formats: ["####-###-####"],
                       context: "mbi medicare beneficiary") { s in
            let excluded: Set<UInt8> = Set("SLOIBZ".utf8)
            return s[0] != 0x30 && !s.contains(where: excluded.contains)
        },
        // Mexican CURP: four letters, YYMMDD, sex, state, three consonants, homoclave, check digit.
        IdentityScheme("mx-curp", lengths: [18], patterns: ["AAAA999999AAAAAA*9"], check: .weak, structure: 2,
                       context: "curp mexican") { s in
            guard dateOK(s, 4), [0x48, 0x4D, 0x58].contains(s[10]) else { return false }
            let alphabet = Array("0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ".utf8)
            var sum = 0
            for k in 0..<17 {
                guard let v = alphabet.firstIndex(of: s[k]) else { return false }
                sum += v * (18 - k)
            }
            return (10 - sum % 10) % 10 == C.digit(s[17])
        },
        // Brazilian CPF: nine digits and two mod-11 check digits; not all one digit.
        IdentityScheme("br-cpf", lengths: [11], patterns: ["99999999999"], check: .strong, formats: ["###.###.###-##"],
                       context: "cpf cadastro receita brazilian brasil") { s in
            guard Set(s).count > 1 else { return false }
            let d1 = C.weighted(s, [10, 9, 8, 7, 6, 5, 4, 3, 2]) * 10 % 11 % 10
            let d2 = C.weighted(s, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) * 10 % 11 % 10
            return d1 == C.digit(s[9]) && d2 == C.digit(s[10])
        },
        // Argentine CUIT/CUIL: type prefix, DNI, mod-11 check.
        IdentityScheme("ar-cuit", lengths: [11], patterns: ["99999999999"], check: .weak, structure: 1, formats: ["##-########-#"],
                       context: "cuit cuil argentine argentina") { s in
            guard [20, 23, 24, 27, 30, 33, 34].contains(C.number(s, 0..<2)) else { return false }
            var c = 11 - C.weighted(s, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
            if c == 11 { c = 0 }
            return c < 10 && c == C.digit(s[10])
        },
        // Argentine DNI: seven or eight digits, no check digit: its word must be there.
        IdentityScheme("ar-dni", lengths: [7, 8], patterns: ["9999999", "99999999"], check: .none, formats: ["##.###.###", "#.###.###"],
                       context: "dni documento argentine argentino argentina", requiresContext: true) { _ in true },
    ]

    static let asiaPacific: [IdentityScheme] = [
        // Indian Aadhaar: twelve digits, not starting 0 or 1, Verhoeff.
        IdentityScheme("in-aadhaar", lengths: [12], patterns: ["999999999999"], check: .weak, formats: ["#### #### ####", "####-####-####"],
                       context: "aadhaar aadhar adhaar uidai आधार uid indian") { s in s[0] >= 0x32 && C.verhoeff(s) },
        // Indian PAN: five letters (the fourth the holder type), four digits, a letter.
        IdentityScheme("in-pan", lengths: [10], patterns: ["AAAAA9999A"], check: .none, structure: 2,
                       context: "pan पैन itr kyc incometax indian") { s in "ABCFGHLJPT".utf8.contains(s[3]) },
        // Chinese resident identity number: region, YYYYMMDD, serial, ISO 7064 MOD 11-2 (X for 10).
        IdentityScheme("cn-id", lengths: [18], patterns: ["99999999999999999*"], check: .weak, structure: 2,
                       context: "身份证 身份證 身份证号 resident shenfenzheng chinese china") { s in
            guard (0x31...0x38).contains(s[0]), s[17] == 0x58 || ByteClass.isDigit(s[17]) else { return false }
            let year = C.number(s, 6..<10)
            guard (1900...2099).contains(year), C.plausibleDate(month: C.number(s, 10..<12), day: C.number(s, 12..<14)) else { return false }
            let sum = C.weighted(s, [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2])
            return Array("10X98765432".utf8)[sum % 11] == s[17]
        },
        // Korean resident registration number: YYMMDD, sex/century digit, five digits, mod-11 check.
        IdentityScheme("kr-rrn", lengths: [13], patterns: ["9999999999999"], check: .weak, structure: 1, formats: ["######-#######"],
                       context: "rrn 주민등록번호 주민번호 주민등록 resident registration korean korea") { s in
            guard dateOK(s, 0), (0x31...0x38).contains(s[6]) else { return false }
            return (11 - C.weighted(s, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]) % 11) % 10 == C.digit(s[12])
        },
        // Japanese My Number: eleven digits and a mod-11 check with weights 2…7, 2…6 from the right.
        IdentityScheme("jp-mynumber", lengths: [12], patterns: ["999999999999"], check: .weak, formats: ["#### #### ####"],
                       context: "マイナンバー 個人番号 mynumber マイナンバーカード japanese japan") { s in
            var sum = 0
            for n in 1...11 { sum += C.digit(s[11 - n]) * (n <= 6 ? n + 1 : n - 5) }
            let r = sum % 11
            return (r <= 1 ? 0 : 11 - r) == C.digit(s[11])
        },
        // Australian tax file number: weights 1 4 3 7 5 8 6 9 10, sum divisible by 11.
        IdentityScheme("au-tfn", lengths: [9], patterns: ["999999999"], check: .weak, formats: ["### ### ###"],
                       context: "tfn ato file australian") { s in C.weighted(s, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 == 0 },
        // Australian Medicare card: first digit 2–6, check digit (weights 1 3 7 9), issue number.
        IdentityScheme("au-medicare", lengths: [10, 11], patterns: ["9999999999", "99999999999"], check: .weak,
                       formats: ["#### ##### #", "#### ##### #-#", "#### ##### # #"],
                       context: "medicare australian", requiresContext: true) { s in
            (0x32...0x36).contains(s[0]) && C.weighted(s, [1, 3, 7, 9, 1, 3, 7, 9]) % 10 == C.digit(s[8])
        },
        // Indonesian NIK: province, regency, district, DDMMYY (women day +40), serial. No check digit.
        IdentityScheme("id-nik", lengths: [16], patterns: ["9999999999999999"], check: .none, structure: 1,
                       context: "nik ktp kependudukan indonesian", requiresContext: true) { s in
            (11...94).contains(C.number(s, 0..<2)) && dateOK(s, 6, dayFirst: true, dayOffsets: [0, 40])
        },
    ]

    static let other: [IdentityScheme] = [
        // South African ID: YYMMDD, gender serial, citizenship 0–2, a digit, Luhn.
        IdentityScheme("za-id", lengths: [13], patterns: ["9999999999999"], check: .weak, structure: 1, formats: ["###### #### ###"],
                       context: "rsa sa fica sars african") { s in
            dateOK(s, 0) && (0x30...0x32).contains(s[10]) && C.luhn(s)
        },
        // Turkish TC Kimlik: no leading 0, two check digits.
        IdentityScheme("tr-tckn", lengths: [11], patterns: ["99999999999"], check: .strong,
                       context: "tc kimlik tckn kimlikno nufus turkish") { s in
            guard s[0] != 0x30 else { return false }
            let d = s.map { C.digit($0) }
            let odd = d[0] + d[2] + d[4] + d[6] + d[8], even = d[1] + d[3] + d[5] + d[7]
            return ((odd * 7 - even) % 10 + 10) % 10 == d[9] && d[0..<10].reduce(0, +) % 10 == d[10]
        },
        // Saudi national ID (1) and iqama (2): ten digits, Luhn.
        IdentityScheme("sa-id", lengths: [10], patterns: ["9999999999"], check: .weak, structure: 1,
                       context: "iqama الهوية هوية saudi muqeem absher saudi") { s in (s[0] == 0x31 || s[0] == 0x32) && C.luhn(s) },
        // Russian personal INN: ten digits and two mod-11 check digits.
        IdentityScheme("ru-inn", lengths: [12], patterns: ["999999999999"], check: .strong,
                       context: "инн inn russian") { s in
            C.weighted(s, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11 % 10 == C.digit(s[10])
                && C.weighted(s, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11 % 10 == C.digit(s[11])
        },
        // Russian SNILS: nine digits and a two-digit check (Σ dᵢ·(9−i), reduced mod 101, 100 → 00).
        IdentityScheme("ru-snils", lengths: [11], patterns: ["99999999999"], check: .strong, formats: ["###-###-### ##", "###-###-###-##"],
                       context: "снилс snils russian") { s in
            var sum = C.weighted(s, [9, 8, 7, 6, 5, 4, 3, 2, 1])
            while sum > 101 { sum %= 101 }
            return (sum >= 100 ? 0 : sum) == C.number(s, 9..<11)
        },
        // Driving licences: formats differ by state and country (letters and digits, 5–16 characters with
        // four or more digits), so only a licence word makes a token one.
        IdentityScheme("driving-licence", lengths: Array(5...16), check: .none,
                       context: """
                           licence license driving driver drivers dl fuhrerschein fuhrerscheinnummer permis conduire conducir \
                           licencia patente carteira cnh rijbewijs korkort ajokortti prawo jazdy vodicsky korkortsnummer
                           """, requiresContext: true) { s in s.filter(ByteClass.isDigit).count >= 4 },
        // IMEI: fourteen digits and a Luhn digit. A device, not a card: its word must be there.
        IdentityScheme("imei", .deviceID, lengths: [15], patterns: ["999999999999999"], check: .weak, formats: ["##-######-######-#"],
                       context: "imei", requiresContext: true) { s in C.luhn(s) },
        // VIN: seventeen characters without I O Q, check digit at position 9 (weights 8…2, 10, 0, 9…2).
        IdentityScheme("vin", .vehicleID, lengths: [17], patterns: ["*****************"], check: .weak, structure: 1,
                       context: "vin fahrgestellnummer fahrzeug vehicle chassis car") { s in VehicleIdentification.isValid(s) },
    ]
}
