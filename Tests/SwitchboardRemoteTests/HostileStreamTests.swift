import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Servers that keep a stream busy without answering, or flood it: every case ends with a typed,
/// retryable-or-fallback error in bounded time and memory, and the coordinator serves the request
/// elsewhere.
@Suite("A hostile server never hangs or floods the client")
struct HostileStreamTests {
    static func hostile(tokenTimeout: Duration = .milliseconds(300), totalTimeout: Duration = .seconds(30),
                        maxResponseBytes: Int = 1 << 20, maxLineBytes: Int = 64 << 10) -> RemoteProviderSettings {
        RemoteProviderSettings(maxContextTokens: 4096, requestTimeout: .seconds(10), idleTimeout: .seconds(10),
                               tokenTimeout: tokenTimeout, totalTimeout: totalTimeout,
                               maxResponseBytes: maxResponseBytes, maxLineBytes: maxLineBytes)
    }

    /// `count` copies of `event`, `milliseconds` apart (30 s: far beyond every timeout here, and beyond
    /// the generous bounds that allow for a machine busy with other tests).
    static func drip(_ event: String, count: Int = 600, milliseconds: Int = 50) -> LoopbackReply {
        .sse(Array(repeating: event, count: count), pauseMilliseconds: milliseconds, then: [.holdOpen(seconds: 5)])
    }

    static let role = sseData(#"{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}"#)

    @Test func keepAliveCommentsAloneTimeOutAndTheRequestFallsBack() async throws {
        let server = try LoopbackHTTPServer([Self.drip(": keep-alive\n\n")])
        defer { server.stop() }
        let configuration = SwitchboardConfiguration(retry: RetryPolicy(maxAttemptsPerProvider: 1),
                                                     breaker: .init(consecutiveFailures: 1_000, minimumCalls: 1_000),
                                                     cacheEnabled: false, stateRefreshInterval: .zero)
        let coordinator = Coordinator(providers: [CoordinatorEndToEndTests.local(), openAI(server, settings: Self.hostile())],
                                      configuration: configuration, deviceState: FixedDeviceState())
        var fallbackReason: ProviderError?
        var response: GenerationResponse?
        for await event in coordinator.stream(GenerationRequest(prompt: "Why is the sky blue?", preferredProviders: ["openai-compatible"])) {
            if case .fallback(_, _, let reason) = event { fallbackReason = reason }
            if case .completed(let done) = event { response = done }
        }
        #expect(fallbackReason == .tokenTimeout(.milliseconds(300)))
        #expect(response?.providerID == "local")
        // The reason above shows the 30 s keep-alive stream was cut by the token timeout; wall time is
        // not asserted (a machine busy with the model suites can delay any task by seconds).
        #expect(await server.waitUntil { $0.clientClosures == 1 }, "the connection was closed")
    }

    @Test func emptyDeltasDoNotCountAsTokens() async throws {
        let empty = sseData(#"{"choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}"#)
        let server = try LoopbackHTTPServer([Self.drip(empty)])
        defer { server.stop() }
        let error = await failure(of: openAI(server, settings: Self.hostile()).generate(providerRequest()))
        #expect(error == .tokenTimeout(.milliseconds(300)))
        #expect(error?.classification == .retryable)
    }

    @Test func oneHugeLineSentSlowlyTimesOut() async throws {
        let piece = String(repeating: "x", count: 512)
        let server = try LoopbackHTTPServer([Self.drip("data: " + piece)])
        defer { server.stop() }
        let error = await failure(of: openAI(server, settings: Self.hostile()).generate(providerRequest()))
        #expect(error == .tokenTimeout(.milliseconds(300)))
    }

    @Test func tokensThatNeverEndHitTheWholeRequestDeadline() async throws {
        let token = sseData(#"{"choices":[{"index":0,"delta":{"content":"la "}}]}"#)
        let server = try LoopbackHTTPServer([Self.drip(token)])
        defer { server.stop() }
        // Generous against a 2-core machine busy with the real-model suites: a token every 50 ms must
        // arrive within the first 6 s.
        let provider = openAI(server, settings: Self.hostile(tokenTimeout: .seconds(12), totalTimeout: .seconds(6)))
        var pieces = 0
        var caught: ProviderError?
        do {
            for try await event in provider.generate(providerRequest(maxTokens: 10_000)) {
                if case .token = event { pieces += 1 }
            }
        } catch { caught = error as? ProviderError }
        #expect(caught == .callTimeout(.seconds(6)))
        #expect(pieces > 0, "tokens did flow; only the whole-call deadline stopped them")
    }

    @Test func aLineLongerThanTheCapStopsTheStream() async throws {
        let server = try LoopbackHTTPServer([.sse(["data: " + String(repeating: "y", count: 200_000)], then: [.holdOpen(seconds: 5)])])
        defer { server.stop() }
        // The token timeout is far past the server's 5 s hold: only the line cap can end this stream with
        // `responseTooLarge` (a 300 ms timeout raced the 200 KB line on a busy CI machine and won).
        let settings = Self.hostile(tokenTimeout: .seconds(20))
        let error = await failure(of: openAI(server, settings: settings).generate(providerRequest()))
        #expect(error == .responseTooLarge(what: "an event-stream line", limit: 64 << 10))
        #expect(error?.classification == .fallbackOnly)
    }
}
