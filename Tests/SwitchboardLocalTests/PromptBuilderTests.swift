import SwitchboardCore
import Testing
@testable import SwitchboardLocal

@Suite("Prompt building")
struct PromptBuilderTests {
    /// One token per whitespace-separated word, plus one per control token when they are parsed.
    static let words = TokenCounter { text, parseSpecial in
        var text = text
        var special = 0
        if parseSpecial {
            for marker in ["<start_of_turn>", "<end_of_turn>"] {
                special += text.components(separatedBy: marker).count - 1
                text = text.replacingOccurrences(of: marker, with: " ")
            }
        }
        return special + text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
    }

    func builder(_ format: ModelConfiguration.PromptFormat = .completion, context: Int = 1000) -> PromptBuilder {
        PromptBuilder(format: format, contextLength: context, counter: Self.words)
    }

    @Test("a base model gets the prompt as it is, without control-token parsing")
    func completion() throws {
        let built = try builder().build(GenerationRequest(prompt: "The capital of France is", maxTokens: 8))
        #expect(built.text == "The capital of France is")
        #expect(!built.parseSpecial)
        #expect(built.tokenCount == 6)
    }

    @Test("a resumed request ends with the answer so far: after the opened reply, or after the text to continue")
    func answerPrefix() throws {
        var completion = GenerationRequest(prompt: "The capital of France is", maxTokens: 8)
        completion.answerPrefix = " Paris, a city"
        let built = try builder().build(completion)
        #expect(built.text == "The capital of France is Paris, a city")
        #expect(built.answerPrefix == " Paris, a city")
        var chat = GenerationRequest(messages: [ChatMessage(.user, "Capital of France?")], maxTokens: 8)
        chat.answerPrefix = "It is <end_of_turn>"
        let turns = try builder().build(chat)
        #expect(turns.text.hasSuffix("<start_of_turn>model\nIt is <end_of_turn>"))
        #expect(turns.segments.last == .text("It is <end_of_turn>"), "caller text: markup in it stays text")
    }

    @Test("chat messages use Gemma turns: system merged into the first user turn, assistant as model")
    func chatTurns() throws {
        let request = GenerationRequest(messages: [
            ChatMessage(.system, "Be brief. "), ChatMessage(.user, " Hi"), ChatMessage(.assistant, "Hello!"),
            ChatMessage(.user, "Name a colour."),
        ], maxTokens: 8)
        let built = try builder().build(request)
        #expect(built.text == """
            <start_of_turn>user
            Be brief.

            Hi<end_of_turn>
            <start_of_turn>model
            Hello!<end_of_turn>
            <start_of_turn>user
            Name a colour.<end_of_turn>
            <start_of_turn>model

            """)
        #expect(built.parseSpecial)
    }

    @Test("an instruction model wraps a plain prompt as a user turn")
    func instructionPrompt() throws {
        let built = try builder(.gemmaTurns).build(GenerationRequest(prompt: "Say hi", maxTokens: 4))
        #expect(built.text == "<start_of_turn>user\nSay hi<end_of_turn>\n<start_of_turn>model\n")
        #expect(built.tokenCount == 1 + 2 + 3 + 2)
    }

    @Test("memory goes before the prompt, in its original order")
    func memoryFits() throws {
        let memory = MemoryContext(entities: ["Ada", "Bob"], longTerm: [.init("Ada likes tea", relevance: 0.2)],
                                   notes: [.init("meeting at noon", relevance: 0.9)])
        let built = try builder().build(GenerationRequest(prompt: "Plan the day:", memory: memory, maxTokens: 8))
        #expect(built.text == "Context:\n- Known entities: Ada, Bob\n- Ada likes tea\n- meeting at noon\n\nPlan the day:")
        #expect(built.includedMemoryItems == 3 && built.droppedMemoryItems == 0)
    }

    @Test("when space runs out the least relevant memory is dropped first")
    func memoryBudget() throws {
        let memory = MemoryContext(shortTerm: [.init("low one two three", relevance: 0.1)],
                                   notes: [.init("high one two", relevance: 0.9), .init("mid one two", relevance: 0.5)])
        // Prompt 3 words + BOS = 4; header 1; each line 4 words. Context 20, maxTokens 6 → 14 room:
        // 4 (prompt) + 1 (header) + 4 + 4 = 13 fits two lines, not the third.
        let built = try builder(context: 20).build(GenerationRequest(prompt: "what is next", memory: memory, maxTokens: 6))
        #expect(built.text == "Context:\n- high one two\n- mid one two\n\nwhat is next")
        #expect(built.droppedMemoryItems == 1)
        #expect(built.tokenCount <= 14)
        let tight = try builder(context: 12).build(GenerationRequest(prompt: "what is next", memory: memory, maxTokens: 6))
        #expect(tight.text == "what is next" && tight.includedMemoryItems == 0)
    }

    @Test("a prompt that cannot fit is a typed context error with the numbers")
    func contextExceeded() {
        let prompt = Array(repeating: "word", count: 50).joined(separator: " ")
        #expect(throws: ProviderError.contextLengthExceeded(limit: 40, requested: 51 + 10)) {
            try builder(context: 40).build(GenerationRequest(prompt: prompt, maxTokens: 10))
        }
        #expect(ProviderError.contextLengthExceeded(limit: 40, requested: 61).classification == .fallbackOnly)
    }

    @Test("bad requests get invalidRequest")
    func invalid() {
        #expect(throws: ProviderError.self) { try builder().build(GenerationRequest(prompt: "x", maxTokens: 0)) }
        #expect(throws: ProviderError.self) { try builder().build(GenerationRequest(prompt: "", maxTokens: 5)) }
        #expect(throws: ProviderError.self) {
            try builder().build(GenerationRequest(prompt: "x", images: [ImageAttachment(data: .init(), mimeType: "image/png")]))
        }
    }
}
