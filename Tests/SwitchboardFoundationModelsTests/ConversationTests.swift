import Testing
import SwitchboardCore
@testable import SwitchboardFoundationModels

@Suite("Foundation Models conversation mapping")
struct ConversationTests {
    @Test("System messages and memory are the instructions; earlier turns the transcript; the last user turn the prompt")
    func conversation() throws {
        var request = GenerationRequest(messages: [
            ChatMessage(.system, "Be brief."), ChatMessage(.user, "Hi"), ChatMessage(.assistant, "Hello!"),
            ChatMessage(.system, "Answer in French."), ChatMessage(.user, "Weather?"),
        ])
        request.memory = MemoryContext(entities: ["Paris"], notes: [.init("likes rain")])
        let conversation = try SystemModelConversation(request)
        #expect(conversation.instructions == "Be brief.\n\nAnswer in French.\n\nWhat you know about the user:\n- Entities: Paris\n- likes rain")
        #expect(conversation.transcript == [.prompt("Hi"), .response("Hello!")])
        #expect(conversation.prompt == "Weather?")
        #expect(conversation.instructionsWithTranscript?.hasSuffix("The conversation so far:\nUser: Hi\nAssistant: Hello!") == true)
    }

    @Test("request.prompt follows the messages as the prompt; every message stays in the transcript")
    func promptField() throws {
        let conversation = try SystemModelConversation(GenerationRequest(prompt: "Now this", messages: [ChatMessage(.user, "Earlier")]))
        #expect(conversation.prompt == "Now this" && conversation.transcript == [.prompt("Earlier")])
        #expect(conversation.instructions == nil)
        #expect(try SystemModelConversation(GenerationRequest(prompt: "solo")).instructionsWithTranscript == nil)
    }

    @Test("A conversation that ends with tool results makes those results the prompt")
    func toolResults() throws {
        let call = ToolCall(id: "c1", name: "lookup", arguments: #"{"q":"x"}"#)
        let request = GenerationRequest(messages: [
            ChatMessage(.user, "Find x"), .assistant(toolCalls: [call]),
            .tool(ToolResult(callID: "c1", name: "lookup", output: "42")),
            .tool(ToolResult(callID: "c2", name: "lookup", output: "boom", isError: true)),
        ])
        let conversation = try SystemModelConversation(request)
        #expect(conversation.transcript == [.prompt("Find x"), .toolCalls([call])])
        #expect(conversation.prompt == "lookup returned: 42\nlookup failed: boom")
    }

    @Test("A tool result inside the conversation stays in the transcript with the id of the call it answers")
    func toolResultInTranscript() throws {
        let call = ToolCall(id: "c7", name: "lookup", arguments: "{}")
        let conversation = try SystemModelConversation(GenerationRequest(messages: [
            ChatMessage(.user, "Find x"), .assistant(toolCalls: [call]), .tool(ToolResult(callID: "c7", name: "lookup", output: "42")),
            ChatMessage(.assistant, "It is 42."), ChatMessage(.user, "Thanks, and y?"),
        ]))
        #expect(conversation.transcript == [.prompt("Find x"), .toolCalls([call]),
                                            .toolOutput(name: "lookup", callID: "c7", output: "42", isError: false), .response("It is 42.")])
        #expect(conversation.prompt == "Thanks, and y?")
    }

    @Test("No prompt and no user turn, or a partial answer to continue, are refused with invalidRequest")
    func refusals() {
        #expect(throws: ProviderError.self) { try SystemModelConversation(GenerationRequest(messages: [ChatMessage(.assistant, "hi")])) }
        #expect(throws: ProviderError.self) { try SystemModelConversation(GenerationRequest()) }
        var resumed = GenerationRequest(prompt: "go on")
        resumed.answerPrefix = "Once upon"
        #expect(throws: ProviderError.invalidRequest("the system model cannot continue a partial answer")) {
            try SystemModelConversation(resumed)
        }
    }

    @Test("Temperature is clamped to the framework's 0...1 and maxTokens becomes maximumResponseTokens")
    func options() async {
        let model = ScriptedSystemModel(pieces: ["ok"])
        let provider = FoundationModelsProvider(id: "fm", model: model)
        var request = GenerationRequest(prompt: "hi", maxTokens: 77)
        request.sampling.temperature = 1.7
        guard case .success(let call) = await provider.prepare(ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public))) else {
            Issue.record("refused"); return
        }
        #expect(call.temperature == 1 && call.maximumResponseTokens == 77)
    }
}
