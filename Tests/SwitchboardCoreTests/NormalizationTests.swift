import Testing
import SwitchboardCore

@Suite struct NormalizationTests {
    func normalized(_ text: String) -> String { String(decoding: NormalizedText(text).bytes, as: UTF8.self) }

    @Test func invisibleAndLookAlikeCharactersFold() {
        #expect(normalized("pass\u{00AD}wo\u{200B}rd") == "password")
        #expect(normalized("4111\u{00A0}1111\t\t1111  1111") == "4111 1111 1111 1111")
        #expect(normalized("078\u{2013}05\u{2011}1120") == "078-05-1120")
        #expect(normalized("\u{FF14}\u{FF11}\u{FF11}\u{FF11} \u{1D7D2}") == "4111 4")
        #expect(normalized("\u{202E}Café e\u{301} ПАРОЛЬ") == "Cafe e пароль")
        #expect(normalized("a\r\nb\rc") == "a\nb\nc")
        #expect(normalized("“quoted” ’") == "\"quoted\" '")
    }

    @Test func plainASCIIIsUnchanged() {
        let text = "What is the capital of France?\nSecond line."
        #expect(normalized(text) == text)
        #expect(NormalizedText(text).originalRange(5..<7) == 5..<7)
    }

    @Test func findingsPointAtTheUsersText() throws {
        let text = "My card is 4111\u{00A0}1111\u{200B}1111\u{2009}1111!"
        let analysis = try ContentAnalyzer().analyze(GenerationRequest(prompt: text))
        let card = try #require(analysis.entities.first { $0.kind == .paymentCard })
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[card.range], as: UTF8.self) == "4111\u{00A0}1111\u{200B}1111\u{2009}1111")
    }

    @Test func unreadableTextFailsClosed() {
        #expect(throws: AnalysisFailure.unreadable) { try ContentAnalyzer().analyze(GenerationRequest(prompt: "hello \u{FFFD} world")) }
        #expect(throws: AnalysisFailure.unreadable) { try ContentAnalyzer().analyze(GenerationRequest(prompt: "nul\u{0}byte")) }
    }

    @Test func throwingCustomRecognizerFailsClosed() throws {
        struct Broken: Error {}
        let broken = CustomRecognizer(name: "employee-ids") { _, _ in throw Broken() }
        let analyzer = ContentAnalyzer(configuration: AnalyzerConfiguration(customRecognizers: [broken]))
        #expect(throws: AnalysisFailure.recognizerFailed("employee-ids")) {
            try analyzer.analyze(GenerationRequest(prompt: "What is 2+2?"))
        }
        let finder = CustomRecognizer(name: "employee-ids") { scan, findings in
            if let at = Array(scan.utf8).firstIndex(of: UInt8(ascii: "#")) { findings.append(Finding(kind: .personalContext, range: at..<(at + 1),
                level: .sensitive)) }
        }
        let custom = ContentAnalyzer(configuration: AnalyzerConfiguration(customRecognizers: [finder]))
        #expect(try custom.analyze(GenerationRequest(prompt: "employee #42")).privacy == .sensitive)
    }

    @Test func healthLanguagesAreData() {
        #expect(HealthLanguage.all.map(\.code) == ["en", "es", "fr", "de", "ru", "zh", "ja"])
        #expect(Lexicon.flags(of: "Brustkrebs").contains(.condition))
        #expect(Lexicon.flags(of: "depresión").contains(.condition), "accents are dropped before lookup")
    }
}
