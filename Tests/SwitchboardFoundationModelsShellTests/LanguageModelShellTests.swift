// `SwitchboardLanguageModel` (OS 27) against the stand-in: a session's request goes through a real
// `Coordinator` and comes back on the channel. Compiled out where the real framework exists.
#if !canImport(FoundationModels) && FOUNDATION_MODELS_STAND_IN
import Synchronization
import Testing
import FoundationModelsStandIn
import SwitchboardFoundationModels
import SwitchboardTestKit
import class Switchboard.Coordinator
import struct SwitchboardCore.ProviderCapabilities
import struct Switchboard.SwitchboardConfiguration

@Suite("Switchboard as a Foundation Models language model, against the stand-in")
struct LanguageModelShellTests {
    static func text(_ content: String) -> [Transcript.Segment] { [.text(Transcript.TextSegment(content: content))] }

    static func run(_ request: LanguageModelExecutorGenerationRequest, on coordinator: Coordinator) async throws
        -> [LanguageModelExecutorGenerationChannel.Event.Made] {
        let model = SwitchboardLanguageModel(coordinator: coordinator, toolCalling: true, guidedGeneration: true)
        let executor = try SwitchboardExecutor(configuration: model.executorConfiguration)
        let sent = Mutex<[LanguageModelExecutorGenerationChannel.Event.Made]>([])
        try await executor.respond(to: request, model: model, streamingInto: LanguageModelExecutorGenerationChannel { event in
            sent.withLock { $0.append(event.made) }
        })
        return sent.withLock { $0 }
    }

    @Test("A session's request is answered through the coordinator: text as it comes, then usage")
    func respondsThroughCoordinator() async throws {
        let provider = ScriptedProvider(id: "engine", output: .tokens(["Hello", ", ", "world"]))
        let coordinator = Coordinator(providers: [provider], configuration: SwitchboardConfiguration(cacheEnabled: false))
        let transcript = Transcript(entries: [
            .instructions(Transcript.Instructions(segments: Self.text("Be kind."), toolDefinitions: [])),
            .prompt(Transcript.Prompt(segments: Self.text("Greet me"))),
        ])
        let events = try await Self.run(LanguageModelExecutorGenerationRequest(
            transcript: transcript, enabledTools: [], generationOptions: GenerationOptions(maximumResponseTokens: 32)), on: coordinator)
        var text = ""
        var usages = 0
        for event in events {
            guard case .response(_, let action) = event else { Issue.record("unexpected \(event)"); continue }
            switch action {
            case .appendTextMade(let piece, _): text += piece
            case .updateUsageMade: usages += 1
            }
        }
        #expect(text == "Hello, world" && usages == 1)
        let received = await provider.receivedRequests
        #expect(received.first?.request.messages.map(\.content) == ["Be kind.", "Greet me"])
        #expect(received.first?.request.maxTokens == 32)
    }

    @Test("A tool call from the provider goes back as a tool-calls event with its arguments")
    func toolCall() async throws {
        var capabilities = ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192)
        capabilities.supportsToolCalling = true
        let provider = ScriptedProvider(id: "engine", capabilities: capabilities, output: .turn { _ in
            ScriptedTurn(toolCalls: [.init(id: "c1", name: "weather", arguments: #"{"city":"Oslo"}"#)])
        })
        let coordinator = Coordinator(providers: [provider], configuration: SwitchboardConfiguration(cacheEnabled: false))
        let parameters = try GenerationSchema(root: .init(referenceTo: "x"), dependencies: [])
        let request = LanguageModelExecutorGenerationRequest(
            transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: Self.text("Weather in Oslo?")))]),
            enabledTools: [Transcript.ToolDefinition(name: "weather", description: "forecast", parameters: parameters)],
            generationOptions: GenerationOptions())
        let events = try await Self.run(request, on: coordinator)
        let calls = events.compactMap { event -> String? in
            guard case .toolCalls(_, .toolCallMade(let id, let name, .appendArgumentsMade(let arguments, _))) = event else { return nil }
            return "\(id) \(name) \(arguments)"
        }
        #expect(calls == [#"c1 weather {"city":"Oslo"}"#])
        #expect(await provider.receivedRequests.first?.request.tools.map(\.name) == ["weather"])
    }

    @Test("An executor for a configuration this process never registered is refused; capabilities are as declared")
    func configuration() {
        let model = SwitchboardLanguageModel(coordinator: Coordinator(), toolCalling: false, guidedGeneration: true)
        #expect(model.capabilities.contains(.guidedGeneration) && !model.capabilities.contains(.toolCalling))
        #expect(throws: SwitchboardExecutorError.unknownCoordinator) {
            try SwitchboardExecutor(configuration: .init(id: ObjectIdentifier(Coordinator())))
        }
    }
}
#endif
