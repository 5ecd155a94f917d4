import Testing
import SwitchboardCore

@Suite struct AnalyzerCorpusTests {
    let analyzer = ContentAnalyzer()

    func level(_ text: String) throws -> PrivacyLevel {
        try analyzer.analyze(GenerationRequest(prompt: text)).privacy
    }

    @Test func requiredExamples() throws {
        #expect(try level("My card is 4111 1111 1111 1111") == .sensitive)
        #expect(try level("SSN 123-45-6789") == .sensitive)
        #expect(try level("my password is hunter2!") == .sensitive)
        #expect(try level("email me at bob@example.com") == .personal)
        #expect(try level("call +1 415 555 0100") == .personal)
        #expect(try level("What is 2+2?") == .public)
        #expect(try level("Order 4111 shipped") == .public)
        #expect(try level("tracking 1234 5678 9012 3456") == .public)
    }

    @Test func corpusSizes() {
        #expect(AnalyzerCorpus.sensitive.count >= 30)
        #expect(AnalyzerCorpus.personal.count >= 20)
        #expect(AnalyzerCorpus.publicPrompts.count >= 30)
    }

    @Test(arguments: AnalyzerCorpus.sensitive)
    func sensitiveIsSensitive(_ text: String) throws {
        #expect(try level(text) == .sensitive, "\(text)")
    }

    @Test(arguments: AnalyzerCorpus.personal)
    func personalIsPersonal(_ text: String) throws {
        #expect(try level(text) == .personal, "\(text)")
    }

    @Test(arguments: AnalyzerCorpus.contextual)
    func contextualIsContextual(_ text: String) throws {
        #expect(try level(text) == .contextual, "\(text)")
    }

    @Test(arguments: AnalyzerCorpus.publicPrompts)
    func publicIsNotSensitive(_ text: String) throws {
        #expect(try level(text) < .sensitive, "\(text)")
    }

    @Test(arguments: AnalyzerCorpus.publicPrompts)
    func publicIsPublic(_ text: String) throws {
        #expect(try level(text) == .public, "\(text)")
    }
}
