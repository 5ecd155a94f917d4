import SwitchboardCore
import Testing
@testable import SwitchboardLocal

/// A conversation with native tool turns (a remote round that fell back, or a session gone private)
/// rendered for the on-device model the way the portable loop writes them.
@Suite("Prompt building with tool turns")
struct PromptBuilderToolTests {
    @Test("a call is not the model's turn; its result is a user turn naming the tool and its arguments")
    func toolTurns() throws {
        let request = GenerationRequest(messages: [
            ChatMessage(.user, "Weather in Paris?"),
            .assistant(toolCalls: [ToolCall(id: "c1", name: "weather", arguments: #"{"city":"Paris"}"#)]),
            .tool(ToolResult(callID: "c1", name: "weather", output: "sunny")),
        ], maxTokens: 8)
        let built = try PromptBuilder(format: .completion, contextLength: 1000, counter: PromptBuilderTests.words).build(request)
        #expect(built.text == """
            <start_of_turn>user
            Weather in Paris?<end_of_turn>
            <start_of_turn>user
            The weather tool {"city":"Paris"} returned: sunny<end_of_turn>
            <start_of_turn>model

            """)
    }
}
