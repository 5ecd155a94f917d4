// Runs the shipped shell (linked in as `Shell/`) against the stand-in: what it builds from the
// plain values and how it reads the framework's errors. Where the real framework exists these
// checks are compiled out (the stand-in's read-back properties are not Apple's), and the shell
// itself compiles against the SDK.
#if !canImport(FoundationModels) && FOUNDATION_MODELS_STAND_IN
import Testing
import FoundationModelsStandIn
import SwitchboardFoundationModels
import struct SwitchboardCore.ToolCall

@Suite("Foundation Models shell against the stand-in")
struct ShellTests {
    @Test("Each DynamicSchema case is spelled as its framework initializer")
    func schemaSpelling() throws {
        let set = DynamicSchemaSet(root: .object(name: "Root", description: "d", properties: [
            .init(name: "a", description: nil, schema: .array(of: .string(pattern: "^x+$"), minimumElements: 1, maximumElements: nil),
                  isOptional: false),
            .init(name: "n", description: "num", schema: .integer(minimum: 1, maximum: 9), isOptional: true),
            .init(name: "r", description: nil, schema: .reference("Node"), isOptional: false),
        ]), dependencies: [.stringChoices(name: "Node", description: nil, choices: ["p", "q"])])
        let schema = try SystemLanguageModelBackend.generationSchema(set)
        guard case .object(let name, let description, let properties) = schema.root.made else { Issue.record("root"); return }
        #expect(name == "Root" && description == "d" && properties.map(\.name) == ["a", "n", "r"])
        #expect(properties.map(\.isOptional) == [false, true, false])
        guard case .array(let items, 1, nil) = properties[0].schema.made, case .type("String", let guides) = items.made else {
            Issue.record("array"); return
        }
        #expect(guides == ["pattern"])
        guard case .type("Int", let intGuides) = properties[1].schema.made else { Issue.record("int"); return }
        #expect(intGuides == ["minimum 1", "maximum 9"])
        guard case .reference("Node") = properties[2].schema.made, case .stringChoices("Node", nil, ["p", "q"]) = schema.dependencies[0].made else {
            Issue.record("reference"); return
        }
    }

    @Test("A pattern Swift's Regex cannot parse is the framework's unsupported guide")
    func badPattern() {
        #expect(throws: SystemModelFailure.unsupportedGuide) { try SystemLanguageModelBackend.dynamic(.string(pattern: "(unclosed")) }
    }

    @Test("Every GenerationError case, a captured tool call and unknown errors are read into plain values")
    func errors() {
        let context = LanguageModelSession.GenerationError.Context(debugDescription: "may quote the prompt")
        let cases: [(LanguageModelSession.GenerationError, SystemModelFailure)] = [
            (.exceededContextWindowSize(context), .contextWindowExceeded(contextSize: nil, tokenCount: nil)),
            (.assetsUnavailable(context), .assetsUnavailable), (.guardrailViolation(context), .guardrailViolation),
            (.unsupportedGuide(context), .unsupportedGuide), (.unsupportedLanguageOrLocale(context), .unsupportedLanguageOrLocale(language: nil)),
            (.decodingFailure(context), .decodingFailure), (.rateLimited(context), .rateLimited),
            (.concurrentRequests(context), .concurrentRequests), (.refusal(.init(), context), .refusal),
        ]
        for (error, expected) in cases {
            #expect(SystemLanguageModelBackend.failure(error) as? SystemModelFailure == expected)
        }
        let tool = CapturingTool(name: "t", description: "", parameters: try! GenerationSchema(root: .init(referenceTo: "x"), dependencies: []),
                                 sequence: 3)
        let captured = ToolCallCaptured(name: "t", argumentsJSON: "{}", sequence: 3)
        let wrapped = LanguageModelSession.ToolCallError(tool: tool, underlyingError: captured)
        #expect(SystemLanguageModelBackend.failure(wrapped) as? ToolCallCaptured == captured)
        #expect(captured.call == ToolCall(id: "fm-call-3", name: "t", arguments: "{}"))
        #expect(SystemLanguageModelBackend.failure(CancellationError()) is CancellationError)
        struct Strange: Error {}
        #expect(SystemLanguageModelBackend.failure(Strange()) as? SystemModelFailure == .unknown(typeName: "Strange"))
    }

    @Test("The capturing tool never runs anything: its call throws the captured call")
    func capturingTool() async throws {
        let tool = CapturingTool(name: "weather", description: "d", parameters: try GenerationSchema(root: .init(referenceTo: "x"), dependencies: []),
                                 sequence: 0)
        await #expect(throws: ToolCallCaptured(name: "weather", argumentsJSON: #"{"city":"Oslo"}"#, sequence: 0)) {
            _ = try await tool.call(arguments: try GeneratedContent(json: #"{"city":"Oslo"}"#))
        }
    }

    @Test("The conversation becomes a Transcript: instructions with the tools, then every earlier turn in order")
    func transcript() throws {
        let call = ToolCall(id: "c1", name: "weather", arguments: #"{"city":"Oslo"}"#)
        let conversation = SystemModelConversation(instructions: "Be brief.", transcript: [
            .prompt("Weather in Oslo?"), .toolCalls([call]), .toolOutput(name: "weather", callID: "c1", output: "rain", isError: false),
            .response("Rain."), .toolOutput(name: "weather", callID: nil, output: "timeout", isError: true),
        ], prompt: "And tomorrow?")
        let tool = CapturingTool(name: "weather", description: "forecast",
                                 parameters: try GenerationSchema(root: .init(referenceTo: "x"), dependencies: []), sequence: 1)
        let session = SystemLanguageModelBackend.session(conversation, model: SystemLanguageModel(), tools: [tool])
        let entries = try #require(session.transcript?.entries)
        #expect(entries.count == 6)
        guard case .instructions(let instructions) = entries[0], case .text(let text) = instructions.segments.first else {
            Issue.record("instructions"); return
        }
        #expect(text.content == "Be brief." && instructions.toolDefinitions.map(\.name) == ["weather"])
        guard case .prompt = entries[1], case .toolCalls(let calls) = entries[2], case .toolOutput(let output) = entries[3],
              case .response = entries[4], case .toolOutput(let failed) = entries[5] else { Issue.record("order"); return }
        #expect(calls.calls.map(\.id) == ["c1"] && calls.calls.first?.arguments.jsonString == #"{"city":"Oslo"}"#)
        #expect(output.id == "c1" && failed.id == "output-4")
        guard case .text(let failure) = failed.segments.first else { Issue.record("segments"); return }
        #expect(failure.content == "error: timeout")
    }

    @Test("Earlier tool-call arguments that are not JSON: the turns are written after the instructions instead, none dropped")
    func transcriptFallback() {
        let conversation = SystemModelConversation(instructions: nil, transcript: [
            .prompt("Hi"), .toolCalls([ToolCall(id: "c", name: "t", arguments: "not json")]),
        ], prompt: "Go on")
        let session = SystemLanguageModelBackend.session(conversation, model: SystemLanguageModel(), tools: [])
        #expect(session.transcript == nil)
        #expect(session.instructions?.text == "The conversation so far:\nUser: Hi\nAssistant called t with not json")
    }

    @Test("Availability reads each reason")
    func availability() async {
        #expect(await SystemLanguageModelBackend(model: SystemLanguageModel(availability: .available)).availability() == .available)
        #expect(await SystemLanguageModelBackend(model: SystemLanguageModel(availability: .unavailable(.modelNotReady))).availability()
                == .modelNotReady)
        #expect(await SystemLanguageModelBackend(model: SystemLanguageModel(availability: .unavailable(.appleIntelligenceNotEnabled)))
                .availability() == .appleIntelligenceNotEnabled)
        #expect(await SystemLanguageModelBackend(model: SystemLanguageModel()).availability() == .deviceNotEligible)
    }
}
#endif
