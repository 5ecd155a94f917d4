import Foundation
import Testing
@testable import SwitchboardInference

/// Constrained decoding over the real SmolLM2 vocabulary: every token's bytes through the automaton.
@Suite(.requiresSmolLM2Model) struct ConstrainedModelTests {
    static let model = Result { try LanguageModel.load(from: SmolLM2TestModel.path) }

    static let summary = JSONGrammar.object([
        .init("title", .string()),
        .init("keyPoints", .array(items: .string(), minItems: 2)),
        .init("rating", .integer(minimum: 1, maximum: 10)),
    ])

    static func generate(_ grammar: JSONGrammar, maxTokens: Int, prompt: String) throws -> (text: String, summary: GenerationSummary) {
        let model = try model.get()
        let session = InferenceSession(model: model, contextLength: 512, threads: 2)
        let options = GenerationOptions(maxTokens: maxTokens, constraint: try JSONConstraint(grammar))
        let loop = GenerationLoop(session: session, options: options, elapsed: { .zero }, isCancelled: { false })
        let chat = model.chatTemplate?.render([ChatTurn(.user, prompt)]) ?? prompt
        var text = ""
        let summary = try loop.run(prompt: model.tokenizer.encode(chat, addBOS: true)) { text += $0.text }
        return (text, summary)
    }

    /// The document is complete and its bytes pass the automaton again from the start.
    static func expectValid(_ grammar: JSONGrammar, _ text: String) throws {
        var automaton = JSONAutomaton(try JSONConstraint(grammar))
        let accepted = automaton.feed(Array(text.utf8))
        #expect(accepted && automaton.canFinish, "\(text)")
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(text)")
    }

    /// 43 tokens is the smallest document: {"title":"","keyPoints":["",""],"rating":1}.
    @Test(arguments: [43, 44, 50, 64])
    func aShortBudgetStillClosesTheDocument(maxTokens: Int) throws {
        let (text, summary) = try Self.generate(Self.summary, maxTokens: maxTokens,
                                                prompt: "Write a long review of a long film with many key points.")
        #expect(summary.completionTokens <= maxTokens)
        try Self.expectValid(Self.summary, text)
    }

    @Test func aBudgetBelowTheSmallestDocumentIsATypedError() throws {
        #expect(throws: InferenceError.self) { try Self.generate(Self.summary, maxTokens: 5, prompt: "Hi") }
    }

    @Test func samplingMasksToValidDocuments() throws {
        let model = try Self.model.get()
        let session = InferenceSession(model: model, contextLength: 512, threads: 2)
        for seed in UInt64(1)...3 {
            let options = GenerationOptions(maxTokens: 48, sampler: SamplerConfiguration(temperature: 1.2, seed: seed),
                                            constraint: try JSONConstraint(Self.summary))
            let loop = GenerationLoop(session: session, options: options, elapsed: { .zero }, isCancelled: { false })
            var text = ""
            _ = try loop.run(prompt: model.tokenizer.encode("Rate a film:", addBOS: true)) { text += $0.text }
            try Self.expectValid(Self.summary, text)
        }
    }
}
