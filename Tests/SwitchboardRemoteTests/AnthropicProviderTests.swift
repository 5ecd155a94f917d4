import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("Anthropic provider over loopback HTTP")
struct AnthropicProviderTests {
    static let happyStream = [
        sseEvent("message_start", #"{"type":"message_start","message":{"id":"m1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}"#),
        sseEvent("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
        sseEvent("ping", #"{"type": "ping"}"#),
        sseEvent("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Bon"}}"#),
        sseEvent("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"jour"}}"#),
        sseEvent("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        sseEvent("message_delta",
                 #"{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":15}}"#),
        sseEvent("message_stop", #"{"type":"message_stop"}"#),
    ]

    @Test func streamsTextUsageAndFinishAndSendsTheRightRequest() async throws {
        let server = try LoopbackHTTPServer([.sse(Self.happyStream, pauseMilliseconds: 5)])
        defer { server.stop() }
        let image = ImageAttachment(data: Data("GIF89a".utf8), mimeType: "image/gif")
        let request = providerRequest("Greet me", messages: [ChatMessage(.system, "You are terse.")], images: [image],
                                      maxTokens: 15, sampling: SamplingOptions(temperature: 0.2, topK: 40, stopSequences: ["\n\n"]))
        let result = try await collect(anthropic(server).generate(request))
        #expect(result.text == "Bonjour")
        #expect(result.finish == .length)
        #expect(result.usage == TokenUsage(promptTokens: 25, completionTokens: 15))

        let sent = try #require(server.requests.first)
        #expect(sent.path == "/v1/messages")
        #expect(sent.headers["x-api-key"] == "ant-test-key-0123456789abcdef")
        #expect(sent.headers["anthropic-version"] == "2023-06-01")
        #expect(sent.headers["authorization"] == nil)
        let body = try #require(sent.json)
        #expect(body["model"] == "claude-test")
        #expect(body["stream"] == true)
        #expect(body["max_tokens"] == 15)
        #expect(body["system"] == "You are terse.")
        #expect(body["top_k"] == 40)
        #expect(body["stop_sequences"] == ["\n\n"])
        let message = try #require(body["messages"]?[0])
        #expect(message["role"] == "user")
        #expect(message["content"]?[0] == ["type": "image", "source": ["type": "base64", "media_type": "image/gif",
                                                                      "data": .string(Data("GIF89a".utf8).base64EncodedString())]])
        #expect(message["content"]?[1] == ["type": "text", "text": "Greet me"])
    }

    @Test func nonStreamingReply() async throws {
        let reply = #"{"id":"m2","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"Hi "},{"type":"text","text":"there"}],"stop_reason":"end_turn","usage":{"input_tokens":8,"output_tokens":3}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let result = try await collect(anthropic(server, settings: settings(streaming: false)).generate(providerRequest()))
        #expect(result.text == "Hi there")
        #expect(result.finish == .stop)
        #expect(result.usage == TokenUsage(promptTokens: 8, completionTokens: 3))
        #expect(server.requests.first?.json?["stream"] == nil)
    }

    @Test func errorEventMidStreamIsMapped() async throws {
        let events = Array(Self.happyStream.prefix(4))
            + [sseEvent("error", #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#)]
        let server = try LoopbackHTTPServer([.sse(events)])
        defer { server.stop() }
        let error = await failure(of: anthropic(server).generate(providerRequest()))
        #expect(error == .server(status: 529, message: "Overloaded"))
        #expect(error?.isRetryable == true)
    }

    @Test func streamWithoutMessageStopIsMalformed() async throws {
        let server = try LoopbackHTTPServer([.sse(Array(Self.happyStream.dropLast()))])
        defer { server.stop() }
        let error = await failure(of: anthropic(server).generate(providerRequest()))
        guard case .malformedResponse? = error else { Issue.record("expected malformedResponse, got \(String(describing: error))"); return }
    }

    @Test func missingKeyFailsBeforeAnyHTTPCall() async throws {
        let server = try LoopbackHTTPServer([])
        defer { server.stop() }
        let provider = anthropic(server, key: nil)
        let error = await failure(of: provider.generate(providerRequest()))
        guard case .authentication? = error else { Issue.record("expected authentication, got \(String(describing: error))"); return }
        #expect(server.snapshot.connections == 0)
        #expect(await provider.availability() == .unavailable(reason: "no API key is configured for anthropic"))
    }
}
