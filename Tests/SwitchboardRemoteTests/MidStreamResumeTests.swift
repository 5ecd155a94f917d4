import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// A remote that breaks after its first tokens: the caller's stream goes on, on the next provider,
/// from exactly where it stopped; the continuation is asked for with the text so far as the
/// assistant's unfinished turn.
@Suite("Mid-stream failover over HTTP")
struct MidStreamResumeTests {
    static func delta(_ text: String) -> String { sseData(#"{"choices":[{"index":0,"delta":{"content":"\#(text)"}}]}"#) }

    @Test func aResetAfterTheFirstTokensResumesOnTheLocalProvider() async throws {
        let server = try LoopbackHTTPServer([.sse([Self.delta("The capital"), Self.delta(" of France")], then: [.drop])])
        defer { server.stop() }
        let local = ScriptedProvider(id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192),
                                     output: .tokens(["The capital", " of France", " is", " Paris."]))
        var configuration = CoordinatorEndToEndTests.configuration()
        configuration.retry = RetryPolicy(maxAttemptsPerProvider: 1)
        let coordinator = Coordinator(providers: [local, openAI(server)], configuration: configuration, clock: ImmediateClock(),
                                      deviceState: FixedDeviceState())
        var pieces: [String] = []
        var resumed: (ProviderID, ProviderID)?
        var response: GenerationResponse?
        for await event in coordinator.stream(GenerationRequest(prompt: "What is the capital of France?", maxTokens: 16,
                                                                preferredProviders: ["openai-compatible"])) {
            switch event {
            case .token(let piece): pieces.append(piece)
            case .resumed(let from, let to, _, _): resumed = (from, to)
            case .completed(let done): response = done
            case .failed(let error): Issue.record("failed: \(error)")
            default: break
            }
        }
        #expect(pieces.joined() == "The capital of France is Paris.", "no text repeated, none lost")
        #expect(resumed?.0 == "openai-compatible" && resumed?.1 == "local")
        #expect(response?.text == "The capital of France is Paris.")
        #expect(response?.resumes == 1)
        let continued = await local.receivedRequests.last?.request
        #expect(continued?.answerPrefix == "The capital of France")
        #expect(continued?.maxTokens == 14, "what is left of the token budget")
    }

    @Test func theContinuationIsSentAsTheAssistantsUnfinishedTurn() async throws {
        let server = try LoopbackHTTPServer([.sse([Self.delta(" is Paris."), sseData(#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#),
                                                   "data: [DONE]\n\n"])])
        defer { server.stop() }
        var request = providerRequest("What is the capital of France?")
        request.request.answerPrefix = "The capital of France"
        var text = ""
        for try await event in openAI(server).generate(request) { if case .token(let piece) = event { text += piece } }
        #expect(text == " is Paris.")
        let sent = try #require(server.requests.first)
        let body = try #require(try JSONValue.decode(sent.body).objectValue)
        let last = try #require(body["messages"]?.arrayValue?.last?.objectValue)
        #expect(last["role"] == "assistant")
        #expect(last["content"] == "The capital of France")
    }

    @Test func aStructuredContinuationIsValidatedWithItsPrefix() throws {
        let schema = GenerationSchema.object([.init("city", .string())])
        var check = try StructuredReplyCheck(.schema(schema), prefix: #"{"city": "Pa"#)
        let held = try check.hold(#"ris"}"#)
        #expect(held)
        #expect(try check.release(maxMessageLength: 200) == [#"ris"}"#])
        var alone = try StructuredReplyCheck(.schema(schema))
        _ = try alone.hold(#"ris"}"#)
        #expect(throws: ProviderError.self) { try alone.release(maxMessageLength: 200) }
    }
}
