import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("Gemini provider over loopback HTTP")
struct GeminiProviderTests {
    static let happyStream = [
        sseData(#"{"candidates":[{"content":{"parts":[{"text":"Ciao"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":6,"totalTokenCount":6},"modelVersion":"gemini-test"}"#),
        "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\" mondo\"}],\"role\":\"model\"},\"index\":0}]}\r\n\r\n",
        sseData(#"{"candidates":[{"content":{"parts":[{"text":"!"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":6,"candidatesTokenCount":4,"totalTokenCount":10}}"#),
    ]

    @Test func streamsTextUsageAndFinishAndSendsTheRightRequest() async throws {
        let server = try LoopbackHTTPServer([.sse(Self.happyStream, pauseMilliseconds: 5)])
        defer { server.stop() }
        let image = ImageAttachment(data: Data([1, 2, 3]), mimeType: "image/jpeg")
        let request = providerRequest("Where?", messages: [ChatMessage(.system, "Answer in Italian."), ChatMessage(.user, "Hi"),
                                                           ChatMessage(.assistant, "Ciao")],
                                      images: [image], maxTokens: 20,
                                      sampling: SamplingOptions(temperature: 0.1, seed: 7))
        let result = try await collect(gemini(server).generate(request))
        #expect(result.text == "Ciao mondo!")
        #expect(result.finish == .stop)
        #expect(result.usage == TokenUsage(promptTokens: 6, completionTokens: 4))

        let sent = try #require(server.requests.first)
        #expect(sent.path == "/v1beta/models/gemini-test:streamGenerateContent?alt=sse")
        #expect(!sent.path.contains("key="))
        #expect(sent.headers["x-goog-api-key"] == "gem-test-key-0123456789abcdef")
        let body = try #require(sent.json)
        #expect(body["systemInstruction"] == ["parts": [["text": "Answer in Italian."]]])
        let contents = try #require(body["contents"]?.arrayValue)
        #expect(contents.map { $0["role"]?.stringValue } == ["user", "model", "user"])
        #expect(contents[2]["parts"]?[0] == ["text": "Where?"])
        #expect(contents[2]["parts"]?[1] == ["inlineData": ["mimeType": "image/jpeg", "data": "AQID"]])
        let config = try #require(body["generationConfig"])
        #expect(config["maxOutputTokens"] == 20)
        #expect(config["seed"] == 7)
        #expect(config["responseMimeType"] == nil, "text output: no schema (see StructuredWireFormatTests)")
    }

    @Test func nonStreamingReply() async throws {
        let reply = #"{"candidates":[{"content":{"parts":[{"text":"42"}],"role":"model"},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":1}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let result = try await collect(gemini(server, settings: settings(streaming: false)).generate(providerRequest()))
        #expect(result.text == "42")
        #expect(result.finish == .length)
        #expect(result.usage == TokenUsage(promptTokens: 3, completionTokens: 1))
        #expect(server.requests.first?.path == "/v1beta/models/gemini-test:generateContent")
    }

    @Test func streamWithoutFinishReasonIsMalformed() async throws {
        let server = try LoopbackHTTPServer([.sse(Array(Self.happyStream.prefix(2)))])
        defer { server.stop() }
        let error = await failure(of: gemini(server).generate(providerRequest()))
        guard case .malformedResponse? = error else { Issue.record("expected malformedResponse, got \(String(describing: error))"); return }
    }

    /// Per the SSE spec an event without its blank line at EOF is discarded, so a final chunk cut
    /// there never counts as the completion.
    @Test func finalEventWithoutBlankLineIsDiscarded() async throws {
        var events = Self.happyStream
        events[2] = String(events[2].dropLast(2))
        let server = try LoopbackHTTPServer([.sse(events)])
        defer { server.stop() }
        let error = await failure(of: gemini(server).generate(providerRequest()))
        guard case .malformedResponse? = error else { Issue.record("expected malformedResponse, got \(String(describing: error))"); return }
    }

    @Test func safetyStopIsAContentPolicyError() async throws {
        let server = try LoopbackHTTPServer([.sse([sseData(#"{"candidates":[{"finishReason":"SAFETY"}]}"#)])])
        defer { server.stop() }
        let error = await failure(of: gemini(server).generate(providerRequest()))
        guard case .contentPolicy? = error else { Issue.record("expected contentPolicy, got \(String(describing: error))"); return }
    }
}
