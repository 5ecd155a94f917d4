import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Replies that are valid but unusual, and claims that are absurd: interim 1xx heads are skipped,
/// `"error": null` is no error, an empty answer is a retryable failure the runtime falls back from,
/// and a context-length claim is clamped.
@Suite("Compatibility: interim heads, null errors, empty answers, absurd claims")
struct CompatibilityRound3Tests {
    static let answer = ChatFaultReplies()

    @Test(arguments: [[100], [103], [100, 103]])
    func interimResponsesBeforeTheRealHeadAreSkipped(_ statuses: [Int]) async throws {
        let server = try LoopbackHTTPServer([Self.answer.reply(nil, streaming: true).afterInterim(statuses),
                                             Self.answer.reply(nil, streaming: false).afterInterim(statuses)])
        defer { server.stop() }
        let streamed = try await collect(openAI(server).generate(providerRequest()))
        #expect(streamed.text == "This is a loopback answer.")
        let whole = try await collect(openAI(server, settings: settings(streaming: false)).generate(providerRequest()))
        #expect(whole.text == "This is a loopback answer.")
    }

    @Test func aNullErrorFieldIsNoError() async throws {
        let document = #"{"id":"x","error":null,"choices":[{"index":0,"message":{"role":"assistant","content":"Fine."},"finish_reason":"stop"}]}"#
        let chunk = sseData(#"{"id":"x","error":null,"choices":[{"index":0,"delta":{"content":"Fine."}}]}"#)
        let server = try LoopbackHTTPServer([.json(200, document), .sse([chunk] + ReplyBoundsTests.done)])
        defer { server.stop() }
        #expect(try await collect(openAI(server, settings: settings(streaming: false)).generate(providerRequest())).text == "Fine.")
        #expect(try await collect(openAI(server).generate(providerRequest())).text == "Fine.")
    }

    @Test func aStreamWithOnlyDoneIsARetryableFailure() async throws {
        let server = try LoopbackHTTPServer([.sse(["data: [DONE]\n\n"])])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        #expect(error == .malformedResponse("the reply was empty (no visible text and no tool call)"))
        #expect(error?.classification == .retryable)
    }

    @Test func aStreamWithOnlyAnUnrequestedToolCallIsAnEmptyAnswerAndTheRuntimeFallsBack() async throws {
        let call = sseData(#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"rm","arguments":"{}"}}]},"#
                           + #""finish_reason":"tool_calls"}]}"#)
        let reply = LoopbackReply.sse([call, "data: [DONE]\n\n"])
        let server = try LoopbackHTTPServer(maxConnections: 4) { _ in reply }
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        #expect(error == .malformedResponse("the reply was empty (no visible text and no tool call)"))
        let configuration = SwitchboardConfiguration(retry: RetryPolicy(maxAttemptsPerProvider: 1),
                                                     breaker: .init(consecutiveFailures: 1_000, minimumCalls: 1_000),
                                                     cacheEnabled: false, stateRefreshInterval: .zero)
        let coordinator = Coordinator(providers: [CoordinatorEndToEndTests.local(), openAI(server)], configuration: configuration,
                                      deviceState: FixedDeviceState())
        var response: GenerationResponse?
        for await event in coordinator.stream(GenerationRequest(prompt: "Why is the sky blue?", preferredProviders: ["openai-compatible"])) {
            if case .completed(let done) = event { response = done }
        }
        #expect(response?.providerID == "local")
        #expect(response?.toolCalls.isEmpty != false)
    }

    @Test(arguments: [
        #"{"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error","#
            + #""n_prompt_tokens":21,"n_ctx":9223372036854775807}}"#,
        #"{"error":{"message":"This model's maximum context length is 999999999999 tokens. However, you requested 21 tokens","#
            + #""code":"context_length_exceeded"}}"#,
        #"{"error":{"message":"This model's maximum context length is 9223372036854775807999 tokens, you requested 21","#
            + #""code":"context_length_exceeded"}}"#,
    ])
    func anAbsurdContextLimitClaimIsParsedAndClamped(_ body: String) async throws {
        let server = try LoopbackHTTPServer([.json(400, body)])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        guard case .contextLengthExceeded(let limit, let requested)? = error else {
            Issue.record("not a context-length error: \(String(describing: error))"); return
        }
        #expect(limit == ReportedUsage.maxTokens, "limit \(limit)")
        #expect(requested == 21)
    }
}
