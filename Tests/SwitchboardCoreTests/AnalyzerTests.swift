import Foundation
import Testing
import SwitchboardCore

@Suite struct AnalyzerTests {
    let analyzer = ContentAnalyzer()

    @Test func tokensCountAllTextIncludingMemory() throws {
        let request = GenerationRequest(prompt: String(repeating: "a", count: 40),
                                        messages: [ChatMessage(.user, String(repeating: "b", count: 20))],
                                        memory: MemoryContext(entities: ["cccc"], notes: [.init(String(repeating: "d", count: 16))]))
        #expect(try analyzer.analyze(request).estimatedPromptTokens == 20)
    }

    @Test func carriesRequestShape() throws {
        let request = GenerationRequest(prompt: "Describe", images: [ImageAttachment(data: Data([1, 2]), mimeType: "image/png")],
                                        output: .jsonSchema("{}"), latencyBudget: .milliseconds(300))
        let analysis = try analyzer.analyze(request)
        #expect(analysis.imageCount == 1)
        #expect(analysis.wantsStructuredOutput)
        #expect(analysis.latencyBudget == .milliseconds(300))
    }

    @Test func personalMemoryRaisesToPersonal() throws {
        let memory = MemoryContext(notes: [.init("likes tea")], containsPersonalData: true)
        let analysis = try analyzer.analyze(GenerationRequest(prompt: "What should I drink?", memory: memory))
        #expect(analysis.privacy == .personal)
        #expect(analysis.entities.map(\.kind) == [.personalMemory])
        let plain = try analyzer.analyze(GenerationRequest(prompt: "What should I drink?", memory: MemoryContext(notes: [.init("likes tea")])))
        #expect(plain.privacy == .public)
    }

    @Test func sensitiveMemoryTextIsFoundWithItsIndex() throws {
        let request = GenerationRequest(prompt: "hi", messages: [ChatMessage(.user, "hello")],
                                        memory: MemoryContext(notes: [.init("card 4111 1111 1111 1111")]))
        let analysis = try analyzer.analyze(request)
        #expect(analysis.privacy == .sensitive)
        let entity = try #require(analysis.entities.first)
        #expect(entity.textIndex == 2)
        #expect(request.allText[entity.textIndex].utf8.count >= entity.range.upperBound)
    }

    @Test func disabledKindsAreSkipped() throws {
        let lenient = ContentAnalyzer(configuration: AnalyzerConfiguration(disabledKinds: [.email]))
        #expect(try lenient.analyze(GenerationRequest(prompt: "bob@example.com")).privacy == .public)
    }

    @Test func oversizedRequestThrows() {
        let small = ContentAnalyzer(configuration: AnalyzerConfiguration(maxAnalyzedBytes: 10))
        #expect(throws: AnalysisFailure.self) { try small.analyze(GenerationRequest(prompt: "hello, this is long")) }
    }

    @Test(arguments: [
        ("What is the weather like today?", "en"),
        ("¿Cuál es la mejor manera de aprender? Quiero saber más", "es"),
        ("Je voudrais savoir comment faire une tarte avec des pommes", "fr"),
        ("Ich möchte wissen, wie das Wetter ist und was wir machen", "de"),
        ("今天天气怎么样", "zh"),
        ("今日はいい天気ですね", "ja"),
        ("Как дела у тебя сегодня", "ru"),
        ("ما هو الطقس اليوم", "ar"),
        ("4111 2222", "und"),
    ])
    func language(_ text: String, _ expected: String) throws {
        #expect(try analyzer.analyze(GenerationRequest(prompt: text)).language == expected)
    }

    @Test func complexity() throws {
        #expect(try analyzer.analyze(GenerationRequest(prompt: "Hi there")).complexity == .simple)
        let code = "Refactor this:\n```swift\nfunc f() { let x = 1; return x }\n```\nExplain step by step, then compare."
        #expect(try analyzer.analyze(GenerationRequest(prompt: code)).complexity >= .moderate)
        let long = String(repeating: "Explain and compare the design, then implement and optimize it. ", count: 40)
        #expect(try analyzer.analyze(GenerationRequest(prompt: long)).complexity == .complex)
    }

    @Test func analysisNeverContainsTheMatchedText() throws {
        let secrets = ["hunter2!", "4111 1111 1111 1111", "123-45-6789", "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
                       "bob@example.com", "DE89 3704 0044 0532 0130 00"]
        let prompt = "my password is hunter2! card 4111 1111 1111 1111 ssn 123-45-6789 key sk-proj-abcdefghijklmnopqrstuvwxyz012345 mail bob@example.com iban DE89 3704 0044 0532 0130 00"
        let analysis = try analyzer.analyze(GenerationRequest(prompt: prompt))
        #expect(Set(analysis.entities.map(\.kind)).isSuperset(of: [.secret, .paymentCard, .nationalID, .email, .iban]))
        let rendered = [String(describing: analysis), String(reflecting: analysis), "\(analysis.entities)", analysis.entities.description]
        for text in rendered {
            for secret in secrets { #expect(!text.contains(secret)) }
            #expect(!text.contains("hunter2"))
        }
    }
}
