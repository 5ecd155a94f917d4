import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Every reply shape costs bounded memory and CPU: `maxTokens` is enforced on what streams in (pieces
/// and characters), a structured reply held for validation is capped, and JSON work per document is
/// capped by `JSONLimits`.
@Suite("Reply bounds: maxTokens, held bytes, JSON work")
struct ReplyBoundsTests {
    static let done = [sseData(#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#), "data: [DONE]\n\n"]

    /// A client that may buffer a whole reply: what these tests check is the budget and the caps, not a
    /// consumer slowed by a busy machine falling behind the transport's default 4 MiB buffer.
    static func roomyClient(_ server: LoopbackHTTPServer, settings: RemoteProviderSettings = roomy()) -> RemoteProvider {
        .openAI(model: "gemma", baseURL: server.baseURL.appendingPathComponent("v1"), settings: settings,
                transport: URLSessionTransport(maxBufferedBytes: 64 << 20, maxResponseBytes: 64 << 20))
    }

    static func roomy(maxResponseBytes: Int = 32 << 20, streaming: Bool = true) -> RemoteProviderSettings {
        RemoteProviderSettings(maxContextTokens: 4096, supportsStructuredOutput: true, streaming: streaming,
                               requestTimeout: .seconds(20), idleTimeout: .seconds(20), tokenTimeout: .seconds(30),
                               totalTimeout: .seconds(60), maxResponseBytes: maxResponseBytes)
    }

    @Test func oneCharacterPerPieceStopsAtMaxTokens() async throws {
        let pieces = (0..<206).map { LivenessTests.delta(String(UnicodeScalar(UInt8(97 + $0 % 26)))) }
        let server = try LoopbackHTTPServer([.sse(pieces + Self.done)])
        defer { server.stop() }
        let result = try await collect(Self.roomyClient(server).generate(providerRequest(maxTokens: 8)))
        #expect(result.text == "abcdefgh")
        #expect(result.finish == .length)
    }

    @Test func megabytePiecesAreCutToTheCharacterBudget() async throws {
        let piece = LivenessTests.delta(String(repeating: "m", count: 512 << 10))
        // Paced (60 × 100 ms): the server is still sending when the client closes, so the closure is seen.
        let server = try LoopbackHTTPServer([.sse(Array(repeating: piece, count: 60) + Self.done, pauseMilliseconds: 100)])
        defer { server.stop() }
        let result = try await collect(Self.roomyClient(server).generate(providerRequest(maxTokens: 8)))
        #expect(result.text.count == 8 * OutputBudget.scalarsPerToken)
        #expect(result.finish == .length)
        #expect(await server.waitUntil { $0.clientClosures == 1 }, "the rest of the 30 MB was not read")
    }

    @Test func aWholeReplyIsCutToo() async throws {
        let text = String(repeating: "n", count: 1 << 20)
        let body = #"{"choices":[{"index":0,"message":{"role":"assistant","content":"\#(text)"},"finish_reason":"stop"}]}"#
        let server = try LoopbackHTTPServer([.json(200, body)])
        defer { server.stop() }
        let result = try await collect(Self.roomyClient(server, settings: Self.roomy(streaming: false)).generate(providerRequest(maxTokens: 8)))
        #expect(result.text.count == 128 && result.finish == .length)
    }

    @Test func anHonestServerStoppingAtMaxTokensKeepsItsUsageAndFinish() async throws {
        let pieces = (0..<8).map { _ in LivenessTests.delta("ok ") }
        let finish = sseData(#"{"choices":[{"index":0,"delta":{},"finish_reason":"length"}],"usage":{"prompt_tokens":5,"completion_tokens":8}}"#)
        let server = try LoopbackHTTPServer([.sse(pieces + [finish, "data: [DONE]\n\n"])])
        defer { server.stop() }
        let result = try await collect(Self.roomyClient(server).generate(providerRequest(maxTokens: 8)))
        #expect(result.text == String(repeating: "ok ", count: 8))
        #expect(result.finish == .length && result.usage == TokenUsage(promptTokens: 5, completionTokens: 8))
    }

    @Test func aHugeStructuredReplyIsRefusedAtTheHeldCap() async throws {
        // 450 pieces of 64 KB: a valid 28.8 MB document, held whole before (peak RSS 1,082 MB in release).
        let chunk = String(repeating: "s", count: 64 << 10)
        let pieces = [LivenessTests.delta(#"{"city": ""#)] + Array(repeating: LivenessTests.delta(chunk), count: 450)
            + [LivenessTests.delta(#""}"#)]
        let server = try LoopbackHTTPServer([.sse(pieces + Self.done, pauseMilliseconds: 10)])
        defer { server.stop() }
        let schema = GenerationSchema.object([.init("city", .string())])
        let request = providerRequest(output: .schema(schema), maxTokens: 1_000_000)
        let error = await failure(of: Self.roomyClient(server).generate(request))
        #expect(error == .responseTooLarge(what: "the structured reply", limit: StructuredReplyCheck.maxHeldBytes))
    }

    @Test func fifteenMegabytesOfEmptyObjectsCostMillisecondsNotSeconds() async throws {
        let body = "[" + String(repeating: "{},", count: 5 << 20) + "{}]"
        // The parse alone, timed: the value cap ends it after 262,144 values (~1 MB read); Foundation's
        // decoder took 18–24 s (release) for the whole document. Generous for a debug build on a busy machine.
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: JSONParseError.tooManyValues(limit: JSONLimits.reply.maxValues)) { try JSONValue.decode(Data(body.utf8)) }
        #expect(clock.now - start < .seconds(5))
        // And through a provider: a typed, retryable failure.
        let server = try LoopbackHTTPServer([.json(200, body)])
        defer { server.stop() }
        let error = await failure(of: Self.roomyClient(server, settings: Self.roomy(streaming: false)).generate(providerRequest()))
        #expect(error == .malformedResponse("the reply is not valid JSON"))
    }

    @Test func theParserRefusesTooManyValuesAndTooDeepNesting() throws {
        let wide = Data(("[" + String(repeating: "{},", count: 300_000) + "{}]").utf8)
        #expect(throws: JSONParseError.tooManyValues(limit: JSONLimits.reply.maxValues)) { try JSONValue.decode(wide) }
        let deep = Data((String(repeating: "[", count: 200) + String(repeating: "]", count: 200)).utf8)
        #expect(throws: JSONParseError.tooDeep(limit: JSONLimits.reply.maxDepth)) { try JSONValue.decode(deep) }
        #expect(try JSONValue.decode(Data(#"{"a":[1,2.5,"x\u00e9\ud83d\ude00",true,null,{}],"b":-9223372036854775808}"#.utf8))
            == ["a": [1, 2.5, "xé😀", true, .null, [:]], "b": .int(.min)])
        #expect(try JSONValue.decode(Data("1e400".utf8)) == .double(.greatestFiniteMagnitude))
        #expect(try JSONValue.decode(Data("99999999999999999999".utf8)) == .double(1e20))
        for bad in ["", "[", "{\"a\"}", "[1,]", "\"\u{01}\"", "tru", "-", "1.", "[1] x", "\"\\q\""] {
            #expect(throws: JSONParseError.self, "\(bad)") { try JSONValue.decode(Data(bad.utf8)) }
        }
    }
}
