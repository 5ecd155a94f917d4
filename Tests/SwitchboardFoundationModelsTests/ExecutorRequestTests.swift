import Testing
import Switchboard
@testable import SwitchboardFoundationModels

@Suite("Switchboard as a Foundation Models language model: requests and outputs")
struct ExecutorRequestTests {
    @Test("A session's transcript becomes messages in order, with the tools, schema and options")
    func request() throws {
        let call = ToolCall(id: "c1", name: "weather", arguments: #"{"city":"Oslo"}"#)
        let executor = ExecutorRequest(
            instructions: "Be brief.",
            turns: [.prompt("Weather?"), .toolCalls([call]), .toolOutput(name: "weather", callID: "c1", output: "rain", isError: false),
                    .response("Rain."), .prompt("Tomorrow?")],
            tools: [.init(name: "weather", description: "forecast",
                          parametersJSON: #"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#)],
            schemaJSON: #"{"type":"string"}"#, temperature: 3, maximumResponseTokens: 40)
        let request = try executor.generationRequest()
        #expect(request.messages.map(\.role) == [.system, .user, .assistant, .tool, .assistant, .user])
        #expect(request.messages[0].content == "Be brief." && request.messages[2].toolCalls == [call])
        #expect(request.messages[3].toolCallID == "c1" && request.messages[3].content == "rain")
        #expect(request.prompt == nil && request.finalUserTurn == "Tomorrow?")
        #expect(request.tools.map(\.name) == ["weather"] && request.tools.first?.problem == nil)
        #expect(request.output == .jsonSchema(#"{"type":"string"}"#))
        #expect(request.sampling.temperature == 2 && request.maxTokens == 40)
        let plain = try ExecutorRequest(instructions: nil, turns: [.prompt("Hi")]).generationRequest()
        #expect(plain.messages.map(\.role) == [.user] && plain.maxTokens == ExecutorRequest.defaultMaximumResponseTokens)
    }

    @Test("A transcript with nothing to answer, or a tool schema Switchboard cannot read, is refused")
    func refusals() {
        #expect(throws: SwitchboardError.self) { try ExecutorRequest(instructions: "x", turns: [.prompt("a"), .response("b")]).generationRequest() }
        #expect(throws: SwitchboardError.self) { try ExecutorRequest(instructions: "x", turns: []).generationRequest() }
        let badTool = ExecutorRequest(instructions: nil, turns: [.prompt("a")], tools: [.init(name: "t", description: "", parametersJSON: "[")])
        #expect(throws: SwitchboardError.self) { try badTool.generationRequest() }
    }

    @Test("Coordinator events become text, tool calls and usage; routing events send nothing; a failure is thrown")
    func outputs() throws {
        let usage = TokenUsage(promptTokens: 9, completionTokens: 2, cachedPromptTokens: 4)
        let call = ToolCall(id: "c", name: "t", arguments: "{}")
        #expect(try ExecutorOutput.outputs(of: .token("Hi")) == [.text("Hi")])
        #expect(try ExecutorOutput.outputs(of: .token("")) == [])
        #expect(try ExecutorOutput.outputs(of: .toolCall(call)) == [.toolCall(call)])
        #expect(try ExecutorOutput.outputs(of: .providerChosen("p", attempt: 1)) == [])
        let response = GenerationResponse(text: "Hi", providerID: "p", usage: usage)
        #expect(try ExecutorOutput.outputs(of: .completed(response)) == [.usage(usage)])
        #expect(throws: SwitchboardError.deadlineExceeded) { try ExecutorOutput.outputs(of: .failed(.deadlineExceeded)) }
    }

    @Test("The registry hands back the coordinator a model registered, under a stable id")
    func registry() {
        let coordinator = Coordinator()
        let id = CoordinatorRegistry.shared.register(coordinator)
        #expect(CoordinatorRegistry.shared.register(coordinator) == id)
        #expect(CoordinatorRegistry.shared.coordinator(for: id) === coordinator)
        #expect(CoordinatorRegistry.shared.coordinator(for: ObjectIdentifier(Coordinator())) == nil)
    }
}
