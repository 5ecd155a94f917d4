import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("HTTP failures map to classified ProviderErrors")
struct ErrorMappingTests {
    struct StatusCase: Sendable, CustomTestStringConvertible {
        var status: Int
        var expected: ProviderError.Class
        var check: @Sendable (ProviderError) -> Bool
        var testDescription: String { "HTTP \(status)" }
    }

    static let statusCases: [StatusCase] = [
        StatusCase(status: 400, expected: .fallbackOnly) { if case .invalidRequest = $0 { true } else { false } },
        StatusCase(status: 401, expected: .fallbackOnly) { if case .authentication = $0 { true } else { false } },
        StatusCase(status: 403, expected: .fallbackOnly) { if case .authentication = $0 { true } else { false } },
        StatusCase(status: 404, expected: .fallbackOnly) { if case .unknownModel = $0 { true } else { false } },
        StatusCase(status: 408, expected: .retryable) { $0 == .server(status: 408, message: "try again") },
        StatusCase(status: 409, expected: .retryable) { $0 == .server(status: 409, message: "try again") },
        StatusCase(status: 429, expected: .retryable) { $0 == .rateLimited(retryAfter: nil) },
        StatusCase(status: 500, expected: .retryable) { $0 == .server(status: 500, message: "try again") },
        StatusCase(status: 503, expected: .retryable) { $0 == .server(status: 503, message: "try again") },
    ]

    @Test(arguments: statusCases, [true, false])
    func statusMapping(_ item: StatusCase, streaming: Bool) async throws {
        let server = try LoopbackHTTPServer([.json(item.status, #"{"error":{"message":"try again","type":"x"}}"#)])
        defer { server.stop() }
        let error = try #require(await failure(of: openAI(server, settings: settings(streaming: streaming)).generate(providerRequest())))
        #expect(item.check(error), "got \(error)")
        #expect(error.classification == item.expected)
    }

    @Test func redirectsAreNotFollowedWithTheKey() async throws {
        let server = try LoopbackHTTPServer([
            .json(302, "{}", headers: ["Location": "/elsewhere"]),
            .json(200, #"{"choices":[{"index":0,"message":{"content":"leaked"},"finish_reason":"stop"}]}"#),
        ])
        defer { server.stop() }
        let provider = openAI(server, key: "sk-redirect-0123456789abcdef", settings: settings(streaming: false))
        let error = await failure(of: provider.generate(providerRequest()))
        guard case .unavailable(let message)? = error else { Issue.record("expected unavailable, got \(String(describing: error))"); return }
        #expect(message.contains("302"))
        #expect(server.requests.count == 1)
    }

    @Test func retryAfterSeconds() async throws {
        let server = try LoopbackHTTPServer([.json(429, #"{"error":{"message":"slow down"}}"#, headers: ["Retry-After": "7"])])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        #expect(error == .rateLimited(retryAfter: .seconds(7)))
    }

    @Test func retryAfterHTTPDate() async throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let later = HTTPDate.format(now.addingTimeInterval(120))
        let server = try LoopbackHTTPServer([.json(429, #"{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}"#,
                                                   headers: ["Retry-After": later])])
        defer { server.stop() }
        let error = await failure(of: anthropic(server, settings: settings(now: now)).generate(providerRequest()))
        #expect(error == .rateLimited(retryAfter: .seconds(120)))
    }

    @Test func openAIContextLength() async throws {
        let body = #"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#
        let server = try LoopbackHTTPServer([.json(400, body)])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        #expect(error == .contextLengthExceeded(limit: 8192, requested: 9000))
        #expect(error?.classification == .fallbackOnly)
    }

    @Test func llamaCppContextLength() async throws {
        let body = #"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":3000,"n_ctx":2048}}"#
        let server = try LoopbackHTTPServer([.json(400, body)])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        #expect(error == .contextLengthExceeded(limit: 2048, requested: 3000))
    }

    @Test func anthropicContextLength() async throws {
        let body = #"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#
        let server = try LoopbackHTTPServer([.json(400, body)])
        defer { server.stop() }
        let error = await failure(of: anthropic(server).generate(providerRequest()))
        #expect(error == .contextLengthExceeded(limit: 200_000, requested: 210_000))
    }

    @Test func geminiContextLength() async throws {
        let body = #"{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#
        let server = try LoopbackHTTPServer([.json(400, body)])
        defer { server.stop() }
        let error = await failure(of: gemini(server).generate(providerRequest()))
        #expect(error == .contextLengthExceeded(limit: 1_048_576, requested: 1_200_000))
    }

    @Test func geminiInvalidKeyIsAuthentication() async throws {
        let body = #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID"}]}}"#
        let server = try LoopbackHTTPServer([.json(400, body)])
        defer { server.stop() }
        let error = await failure(of: gemini(server).generate(providerRequest()))
        guard case .authentication? = error else { Issue.record("expected authentication, got \(String(describing: error))"); return }
    }

    @Test func anthropicAuthenticationAndUnknownModel() async throws {
        let server = try LoopbackHTTPServer([
            .json(401, #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#),
            .json(404, #"{"type":"error","error":{"type":"not_found_error","message":"model: claude-test"}}"#),
        ])
        defer { server.stop() }
        let provider = anthropic(server, settings: settings(streaming: false))
        #expect(await failure(of: provider.generate(providerRequest())) == .authentication("invalid x-api-key"))
        let second = await failure(of: provider.generate(providerRequest()))
        guard case .unknownModel(let message)? = second else { Issue.record("expected unknownModel, got \(String(describing: second))"); return }
        #expect(message.contains("claude-test"))
    }

    @Test func longServerMessagesAreTruncated() {
        let mapper = APIErrorMapper(dialect: .openAI, model: "m", key: nil, now: Date(), contextLimit: 1, requestedTokens: 1,
                                    maxMessageLength: 20)
        let error = mapper.map(status: 500, headers: [:], body: Data(String(repeating: "x", count: 5000).utf8))
        #expect(error == .server(status: 500, message: String(repeating: "x", count: 20) + "…"))
    }

    @Test func plainTextAndOllamaStyleBodies() {
        let mapper = APIErrorMapper(dialect: .openAI, model: "m", key: nil, now: Date(), contextLimit: 1, requestedTokens: 1,
                                    maxMessageLength: 200)
        #expect(mapper.map(status: 502, headers: [:], body: Data("Bad Gateway".utf8)) == .server(status: 502, message: "Bad Gateway"))
        #expect(mapper.map(status: 404, headers: [:], body: Data(#"{"error":"model \"llama9\" not found, try pulling it first"}"#.utf8))
            == .unknownModel(#"'m' was not found (model "llama9" not found, try pulling it first)"#))
    }
}
