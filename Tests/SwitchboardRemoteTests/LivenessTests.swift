import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// A slow server cannot hold a call: only new visible text resets the no-token timeout (whitespace,
/// zero-width characters and calls of tools nobody offered do not), and every call has a whole-call
/// deadline scaled by its `maxTokens` at a minimum useful rate.
@Suite("Liveness: a minimum useful rate per call")
struct LivenessTests {
    static func slow(tokenTimeout: Duration = .seconds(1), rate: Double = 10, allowance: Duration = .seconds(1)) -> RemoteProviderSettings {
        RemoteProviderSettings(maxContextTokens: 4096, requestTimeout: .seconds(10), idleTimeout: .seconds(10),
                               tokenTimeout: tokenTimeout, totalTimeout: .seconds(60),
                               minimumTokensPerSecond: rate, deadlineAllowance: allowance)
    }

    static func delta(_ content: String) -> String {
        sseData(#"{"choices":[{"index":0,"delta":{"content":\#(GeneratedContent.quoted(content))}}]}"#)
    }

    @Test func theDefaultDeadlineIsSecondsScaledByMaxTokens() {
        let settings = RemoteProviderSettings()
        #expect(settings.callDeadline(maxTokens: 48) == .milliseconds(24_600))
        #expect(settings.callDeadline(maxTokens: 256) == .milliseconds(66_200))
        #expect(settings.callDeadline(maxTokens: 1_000_000) == settings.totalTimeout)
        #expect(settings.callDeadline(maxTokens: .max) == settings.totalTimeout)
        #expect(settings.callDeadline(maxTokens: -5) == settings.deadlineAllowance)
    }

    @Test func oneRealTokenAtAWalkingPaceHitsTheScaledDeadline() async throws {
        // A token every 500 ms never trips the 4 s no-token timeout, even on a busy machine; 20 tokens at
        // 10/s plus 1 s make a 3 s deadline (the old default was 600 s: the drip would have run its full 30 s).
        let server = try LoopbackHTTPServer([HostileStreamTests.drip(Self.delta("word "), count: 60, milliseconds: 500)])
        defer { server.stop() }
        let error = await failure(of: openAI(server, settings: Self.slow(tokenTimeout: .seconds(4))).generate(providerRequest(maxTokens: 20)))
        #expect(error == .callTimeout(.seconds(3)))
        #expect(await server.waitUntil { $0.clientClosures == 1 }, "the connection was closed")
    }

    @Test func anUnrequestedToolCallTricklingArgumentsIsNotProgress() async throws {
        let start = sseData(#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"x","arguments":""}}]}}]}"#)
        let byte = sseData(#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"a"}}]}}]}"#)
        let reply = LoopbackReply.sse([start] + Array(repeating: byte, count: 100), pauseMilliseconds: 200, then: [.holdOpen(seconds: 5)])
        let server = try LoopbackHTTPServer([reply])
        defer { server.stop() }
        // The request offers no tools: the fragments cannot keep it alive past the 1 s no-token timeout.
        let error = await failure(of: openAI(server, settings: Self.slow(rate: 1)).generate(providerRequest(maxTokens: 100)))
        #expect(error == .tokenTimeout(.seconds(1)))
    }

    @Test func whitespaceAndZeroWidthPiecesAreNotProgress() async throws {
        let pieces = [" ", "\n", "\u{200B}", "\t", "\u{2060}", "\u{FEFF}"].map(Self.delta)
        let reply = LoopbackReply.sse([Self.delta("Hi")] + Array((0..<20).map { pieces[$0 % pieces.count] }), pauseMilliseconds: 200,
                                      then: [.holdOpen(seconds: 5)])
        let server = try LoopbackHTTPServer([reply])
        defer { server.stop() }
        let error = await failure(of: openAI(server, settings: Self.slow(rate: 1)).generate(providerRequest(maxTokens: 100)))
        #expect(error == .tokenTimeout(.seconds(1)))
    }

    @Test func aRequestedToolCallStreamingItsArgumentsStaysAlive() async throws {
        let start = sseData(#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"lookup","arguments":""}}]}}]}"#)
        let pieces = ["{\\\"q\\\":", "\\\"a", "b", "c", "d\\\"", "}"].map {
            sseData(#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\#($0)"}}]}}]}"#)
        }
        let end = [sseData(#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#), "data: [DONE]\n\n"]
        // 300 ms apart on a manual clock, 2.4 s in all: longer than the 1 s no-token timeout, so only the
        // fragments' progress keeps the call alive. The events come from an in-process transport that moves
        // the clock on only when the call asks for the next event: under the full suite the model tests
        // starve every other thread for seconds, and a wall-clock version failed there.
        let clock = ManualClock()
        let transport = PacedTransport(events: ([start] + pieces + end).map { Data($0.utf8) }, gap: .milliseconds(300), clock: clock)
        let tool = ToolDefinition(name: "lookup", description: "Looks up", parameters: .object([.init("q", .string())]))
        var request = providerRequest(maxTokens: 100)
        request.request.tools = [tool]
        let settings = RemoteProviderSettings(maxContextTokens: 4096, requestTimeout: .seconds(10), idleTimeout: .seconds(10),
                                              tokenTimeout: .seconds(1), totalTimeout: .seconds(60), clock: clock,
                                              minimumTokensPerSecond: 1, deadlineAllowance: .seconds(30))
        let provider = RemoteProvider.openAI(model: "gemma", baseURL: URL(string: "http://in-process.invalid/v1")!,
                                             settings: settings, transport: transport)
        let result = try await collect(provider.generate(request))
        #expect(clock.now.duration(to: ManualClock.Instant(offset: .zero)) <= .milliseconds(-2400))
        #expect(result.toolCalls.map(\.name) == ["lookup"])
        #expect(result.toolCalls.first?.arguments == #"{"q":"abcd"}"#)
    }
}

/// An HTTP transport that streams fixed SSE events, in process, moving a manual clock on by `gap` each
/// time the call asks for the next event (so the call has handled the one before), then waiting for the
/// call's timer to have looked at the new time.
struct PacedTransport: HTTPTransport {
    let events: [Data]
    let gap: Duration
    let clock: ManualClock
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw ProviderError.transport("streaming only") }
    func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let (events, gap, clock) = (self.events, self.gap, self.clock)
        let next = Counter()
        let body = AsyncThrowingStream<Data, any Error> {
            guard let index = next.take(below: events.count) else { return nil }
            clock.advance(by: gap)
            // Let the call's timer run first: it re-arms (a sleeper again) when progress moved the stall
            // time, and ends the call when it did not.
            await clock.waitForSleepers(1, maxYields: 2_000)
            return events[index]
        }
        return HTTPStreamingResponse(status: 200, headers: ["content-type": "text/event-stream"], body: body)
    }
}

/// The next event's index, handed out once each.
final class Counter: Sendable {
    private let value = Lock(0)
    func take(below limit: Int) -> Int? {
        value.withLock { value in
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}
