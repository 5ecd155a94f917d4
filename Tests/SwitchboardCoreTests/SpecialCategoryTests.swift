import Testing
@testable import SwitchboardCore

/// Health and GDPR article 9 categories: tied to a person they are sensitive, and never contextual;
/// questions, topics, fiction, pets and public figures stay public.
@Suite struct SpecialCategoryTests {
    let analyzer = ContentAnalyzer()

    func level(_ text: String) throws -> PrivacyLevel { try analyzer.analyze(GenerationRequest(prompt: text)).privacy }
    func kinds(_ text: String) throws -> Set<EntityKind> {
        Set(try analyzer.analyze(GenerationRequest(prompt: text)).entities.map(\.kind))
    }

    /// Each category said of oneself, and the same subject asked about in general.
    static let pairs: [(String, String)] = [
        ("I'm 14 weeks pregnant", "How many weeks does a pregnancy last?"),
        ("my HbA1c was 9.1% this spring", "What HbA1c counts as diabetic?"),
        ("I'm on buprenorphine since my relapse", "What is buprenorphine?"),
        ("I'm bisexual", "What percentage of people are bisexual?"),
        ("I'm transgender and on estrogen", "What does transgender mean?"),
        ("I'm a devout Catholic", "When did the Catholic church split?"),
        ("I'm a member of the Socialist Party", "Which party won the election?"),
        ("I'm our union rep at the plant", "What does a union rep do?"),
        ("I have a criminal record", "What is a criminal record?"),
        ("I'm undocumented", "How many undocumented people live in Texas?"),
        ("I'm Kurdish and my family fled in 1991", "Where do Kurdish people live?"),
        ("My BRCA2 test came back positive", "What is BRCA2?"),
    ]

    @Test(arguments: pairs)
    func statementsAreSensitiveQuestionsPublic(_ pair: (String, String)) throws {
        #expect(try level(pair.0) == .sensitive, "\(pair.0)")
        #expect(try level(pair.1) < .sensitive, "\(pair.1)")
    }

    @Test func specialCategoriesReportTheirOwnKind() throws {
        #expect(try kinds("I'm gay").contains(.specialCategory))
        #expect(try kinds("I have HIV").contains(.health))
        #expect(!(try kinds("I'm gay")).contains(.health))
    }

    @Test(arguments: [
        "Can I get HIV from kissing?",                        // hypothetical
        "If I'm pregnant, can I still drink coffee?",
        "I'm reading about schizophrenia for a class",        // a topic between the pronoun and the term
        "My cat has diabetes, what food should I buy?",       // a pet
        "In the novel, the heroine has cancer",               // fiction
        "The senator announced she has breast cancer",        // a public figure
        "Joe Biden is a member of the Democratic Party",      // a named third party's politics
    ])
    func clearedTextsAreNotSensitive(_ text: String) throws {
        #expect(try level(text) < .sensitive, "\(text)")
    }

    @Test(arguments: [
        "Pt is a 67 yo F w/ hx CHF, on furosemide 40 mg",     // clinical shorthand
        "45M, s/p CABG, A1c 8.2",
        "Dx: F41.1",                                          // a labelled ICD-10 code
        "I take 25mg of quetiapine at night",                 // a drug known only by its stem, with a dose
        "Mein Vater ist seit 2019 auf Dialyse",
        "我妈妈得了乳腺癌",
        "제 아들은 자폐증이 있어요",
        "Sarah takes insulin twice a day",                    // a named person
        "HbA1c 8.2%, should I worry?",                        // a lab value with its number, in a question
        "Recently diagnosed with MS, what diet helps?",       // English drops the pronoun
        "Been on Zoloft for 3 years",
    ])
    func personTiedTermsAreSensitive(_ text: String) throws {
        #expect(try level(text) == .sensitive, "\(text)")
    }

    /// Item 7 of issue 25: a recognizer (an app's included) cannot make health or a special category
    /// `contextual`, which the default policy lets go to any remote.
    @Test func specialCategoriesAreNeverContextual() throws {
        for kind in [EntityKind.health, .specialCategory] {
            let lowering = CustomRecognizer(name: "lowering") { text, findings in
                findings.append(Finding(kind: kind, range: 0..<min(4, text.utf8.count), level: .contextual))
            }
            let analyzer = ContentAnalyzer(configuration: AnalyzerConfiguration(customRecognizers: [lowering]))
            let analysis = try analyzer.analyze(GenerationRequest(prompt: "hello there"))
            #expect(analysis.privacy == .sensitive)
            #expect(!PrivacyPolicy().allowsRemote(analysis.privacy))
            #expect(!PrivacyPolicy(allowPersonalRemote: true).allowsRemote(analysis.privacy))
        }
        #expect(EntityKind.allCases.filter(\.isSpecialCategory).allSatisfy { $0.privacy == .sensitive })
        // A relation alone is still only context.
        #expect(try level("my wife wants a birthday idea") == .contextual)
        #expect(try level("my wife is Muslim and I'm converting") == .sensitive)
    }

    @Test func vocabularyCoversThirtyLanguagesAndEveryCategory() {
        let codes = Set(SpecialCategoryLanguage.all.map(\.code))
        #expect(codes.count >= 30)
        let roles = SpecialCategoryLanguage.all.flatMap(\.entries).reduce(SpecialRole()) { $0.union($1.0) }
        #expect(roles.isSuperset(of: SpecialRole.categories))
        // Every language says who speaks and names at least one condition.
        for language in SpecialCategoryLanguage.all where !language.code.hasPrefix("mul") && language.code != "pcm" {
            let own = language.entries.reduce(SpecialRole()) { $0.union($1.0) }
            #expect(own.contains(.selfReference), "\(language.code)")
            #expect(!own.isDisjoint(with: SpecialRole.healthCategories), "\(language.code)")
        }
        // A prefix stem shorter than three bytes would silently match whole words only.
        for language in SpecialCategoryLanguage.all {
            for (_, list) in language.entries {
                for entry in list.split(separator: " ") where entry.hasSuffix("*") {
                    #expect(SpecialVocabulary.hashedBytes(String(entry.dropLast())).count >= 3, "\(entry)")
                }
            }
        }
    }

    @Test func hostileInputIsBounded() {
        let text = String(repeating: "I have diabetes and my son has HIV. ", count: 4000)
        var findings: [Finding] = []
        SpecialCategoryRecognizer.scan(TextScan(text), into: &findings)
        let bound = SpecialCategoryRecognizer.maxFindings + PersonalDetails.maxFindings
        #expect(!findings.isEmpty && findings.count <= bound)
        // One sentence of terms and no person: every search stays in its window (this was quadratic once).
        findings.removeAll()
        SpecialCategoryRecognizer.scan(TextScan(String(repeating: "diabetes ", count: 20000)), into: &findings)
        #expect(findings.isEmpty)
        let cjk = String(repeating: "我有糖尿病", count: 20000)
        findings.removeAll()
        SpecialCategoryRecognizer.scan(TextScan(cjk), into: &findings)
        #expect(!findings.isEmpty && findings.count <= bound)
    }
}

/// Personal data read through the same tables: at least personal, and only with its cue.
@Suite struct PersonalDetailsTests {
    let analyzer = ContentAnalyzer()
    func level(_ text: String) throws -> PrivacyLevel { try analyzer.analyze(GenerationRequest(prompt: text)).privacy }

    @Test(arguments: [
        "I was born on the fifth of May 1982",
        "Nací el 7 de julio de 1990",
        "Ich bin am 12. Mai 1979 geboren",
        "Я родилась 5 мая 1992 года",
        "2001年11月30日生まれです",
        "저는 1988년 2월 14일생이에요",
        "We live at 45.4215, -75.6972",
        "My home IP address is 81.2.69.160",
        "My licence plate is WX19 KLM",
        "I owe about 40k on my mortgage",
        "Je gagne 3 000 euros par mois",
        "Maria Gomez works at Siemens as an engineer",
        "My daughter Emma goes to Riverside Elementary",
    ])
    func personalDetailsAreAtLeastPersonal(_ text: String) throws {
        #expect(try level(text) >= .personal, "\(text)")
    }

    @Test(arguments: [
        "Born on the Fourth of July is a film",
        "Convert 45.4215, -75.6972 to degrees and minutes",
        "My router is at 192.168.1.1",
        "The average salary in Spain is 2,000 euros",
        "What is the license plate format in Italy?",
        "My son hates school",
    ])
    func lookAlikesAreNotPersonal(_ text: String) throws {
        #expect(try level(text) < .personal, "\(text)")
    }

    @Test func cjkDatesNeedAllThreeParts() {
        #expect(PersonalDetails.cjkDate(TextScan("1985年3月3日生まれ")) == 0..<15)
        #expect(PersonalDetails.cjkDate(TextScan("1985年3月")) == nil)
        #expect(PersonalDetails.cjkDate(TextScan("12345年3月3日")) == nil)
    }
}
