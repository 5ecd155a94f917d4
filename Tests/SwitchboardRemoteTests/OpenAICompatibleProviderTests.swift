import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("OpenAI-compatible provider over loopback HTTP")
struct OpenAICompatibleProviderTests {
    static let happyStream = [
        sseData(#"{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#),
        sseData(#"{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}"#),
        sseData(#"{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"lo ✓"},"finish_reason":null}]}"#),
        sseData(#"{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}"#),
        sseData(#"{"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":3,"total_tokens":14}}"#),
        "data: [DONE]\n\n",
    ]

    @Test func streamsTextUsageAndFinishAndSendsTheRightBody() async throws {
        let server = try LoopbackHTTPServer([.sse(Self.happyStream, pauseMilliseconds: 5)])
        defer { server.stop() }
        let ledger = UsageLedger()
        let provider = openAI(server, key: "sk-local-0123456789abcdefghij",
                              settings: settings(pricing: TokenPricing(inputPerMillion: 1, outputPerMillion: 2), ledger: ledger))
        let memory = MemoryContext(entities: ["Ada"], longTerm: [.init("likes tea", relevance: 0.9)])
        let request = providerRequest("Say hello", messages: [ChatMessage(.system, "Be brief."), ChatMessage(.user, "Hi"),
                                                              ChatMessage(.assistant, "Hello!")],
                                      memory: memory, maxTokens: 32,
                                      sampling: SamplingOptions(temperature: 0.5, topP: 0.9, seed: 42, stopSequences: ["END"]))
        let result = try await collect(provider.generate(request))
        #expect(result.text == "Hello ✓")
        #expect(result.pieces == ["Hel", "lo ✓"])
        #expect(result.finish == .length)
        #expect(result.usage == TokenUsage(promptTokens: 11, completionTokens: 3))
        let totals = await provider.usage()
        #expect(totals.requests == 1 && totals.inputTokens == 11 && totals.outputTokens == 3)
        #expect(abs(totals.costUSD - (11 * 1 + 3 * 2) / 1e6) < 1e-12)

        let sent = try #require(server.requests.first)
        #expect(sent.path == "/v1/chat/completions")
        #expect(sent.headers["authorization"] == "Bearer sk-local-0123456789abcdefghij")
        #expect(sent.headers["content-type"] == "application/json")
        let body = try #require(sent.json)
        #expect(body["model"] == "gemma")
        #expect(body["stream"] == true)
        #expect(body["stream_options"]?["include_usage"] == true)
        #expect(body["max_tokens"] == 32)
        #expect(body["temperature"]?.doubleValue == 0.5)
        #expect(body["top_p"]?.doubleValue == 0.9)
        #expect(body["seed"] == 42)
        #expect(body["stop"] == ["END"])
        #expect(body["response_format"] == nil)
        let messages = try #require(body["messages"]?.arrayValue)
        #expect(messages.map { $0["role"]?.stringValue } == ["system", "user", "assistant", "user"])
        let system = try #require(messages[0]["content"]?.stringValue)
        #expect(system.hasPrefix("Be brief."))
        #expect(system.contains("Ada") && system.contains("likes tea"))
        #expect(messages[3]["content"] == "Say hello")
    }

    @Test func nonStreamingReply() async throws {
        let reply = #"{"id":"c2","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Paris."},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let provider = openAI(server, settings: settings(streaming: false))
        let result = try await collect(provider.generate(providerRequest("Capital of France?")))
        #expect(result.text == "Paris.")
        #expect(result.finish == .stop)
        #expect(result.usage == TokenUsage(promptTokens: 9, completionTokens: 2))
        let body = try #require(server.requests.first?.json)
        #expect(body["stream"] == false)
        #expect(body["stream_options"] == nil)
        #expect(server.requests.first?.headers["authorization"] == nil)
    }

    @Test func imagesAndJSONSchemaShapeTheBody() async throws {
        let server = try LoopbackHTTPServer([.sse(StructuredWireFormatTests.openAIStream([#"{"answer":"a logo"}"#]))])
        defer { server.stop() }
        let provider = openAI(server, includeStreamUsage: false)
        let image = ImageAttachment(data: Data([0x89, 0x50, 0x4E, 0x47]), mimeType: "image/png")
        let schema = #"{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}"#
        _ = try await collect(provider.generate(providerRequest("Describe", images: [image], output: .jsonSchema(schema))))
        let body = try #require(server.requests.first?.json)
        #expect(body["stream_options"] == nil)
        let content = try #require(body["messages"]?[0]?["content"]?.arrayValue)
        #expect(content[0] == ["type": "text", "text": "Describe"])
        #expect(content[1]["type"] == "image_url")
        #expect(content[1]["image_url"]?["url"]?.stringValue == "data:image/png;base64,iVBORw==")
        let format = try #require(body["response_format"])
        #expect(format["type"] == "json_schema")
        #expect(format["json_schema"]?["name"] == "response")
        #expect(format["json_schema"]?["strict"] == true)
        #expect(format["json_schema"]?["schema"] == ["type": "object", "properties": ["answer": ["type": "string"]],
                                                     "required": ["answer"], "additionalProperties": false])
    }

    @Test func invalidSchemaIsRefusedBeforeSending() async throws {
        let server = try LoopbackHTTPServer([])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest(output: .jsonSchema("{not json"))))
        guard case .invalidRequest = error else { Issue.record("expected invalidRequest, got \(String(describing: error))"); return }
        #expect(server.requests.isEmpty)
    }

    @Test func streamWithoutDoneIsMalformed() async throws {
        let server = try LoopbackHTTPServer([.sse(Array(Self.happyStream.dropLast()))])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        guard case .malformedResponse = error else { Issue.record("expected malformedResponse, got \(String(describing: error))"); return }
    }

    @Test func malformedJSONInTheStreamIsMalformed() async throws {
        let server = try LoopbackHTTPServer([.sse([Self.happyStream[1], "data: {\"choices\": [\n\n", "data: [DONE]\n\n"])])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        guard case .malformedResponse = error else { Issue.record("expected malformedResponse, got \(String(describing: error))"); return }
    }

    @Test func connectionDroppedMidStreamIsAnErrorNotASuccess() async throws {
        let server = try LoopbackHTTPServer([.sse(Array(Self.happyStream.prefix(3)), then: [.pause(milliseconds: 20), .drop])])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        switch error {
        case .transport?, .malformedResponse?: #expect(error?.isRetryable == true)
        default: Issue.record("expected transport or malformedResponse, got \(String(describing: error))")
        }
    }

    @Test func stalledStreamTimesOut() async throws {
        let server = try LoopbackHTTPServer([.sse(Array(Self.happyStream.prefix(2)), then: [.holdOpen(seconds: 5)])])
        defer { server.stop() }
        let provider = openAI(server, settings: settings(idleTimeout: .milliseconds(300)))
        var tokens: [String] = []
        do {
            for try await event in provider.generate(providerRequest()) { if case .token(let t) = event { tokens.append(t) } }
            Issue.record("a stalled stream succeeded")
        } catch {
            #expect(error as? ProviderError == .timeout)
        }
        #expect(tokens == ["Hel"])
        #expect(await server.waitUntil { $0.clientClosures == 1 })
    }

    @Test func cancellingTheConsumerClosesTheConnection() async throws {
        let server = try LoopbackHTTPServer([.sse(Array(Self.happyStream.prefix(2)), then: [.holdOpen(seconds: 5)])])
        defer { server.stop() }
        let provider = openAI(server)
        let firstToken = AsyncStream<Void>.makeStream()
        let consumer = Task {
            for try await event in provider.generate(providerRequest()) {
                if case .token = event { firstToken.continuation.yield() }
            }
        }
        for await _ in firstToken.stream { break }
        consumer.cancel()
        _ = await consumer.result
        #expect(await server.waitUntil { $0.clientClosures == 1 })
    }

    @Test func serverThatIgnoresStreamTrueIsReadAsOneReply() async throws {
        let reply = #"{"choices":[{"index":0,"message":{"role":"assistant","content":"whole"},"finish_reason":"stop"}],"usage":{"prompt_tokens":2,"completion_tokens":1}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let result = try await collect(openAI(server).generate(providerRequest()))
        #expect(result.text == "whole" && result.usage == TokenUsage(promptTokens: 2, completionTokens: 1))
    }

    @Test func theRequestsRemainingLatencyBudgetCapsTheWaitForAHead() async throws {
        let server = try LoopbackHTTPServer([LoopbackReply(status: 200, steps: [], chunked: true, stallBeforeHead: 5)])
        defer { server.stop() }
        var request = providerRequest()
        request.timeout = .milliseconds(300)
        let error = await failure(of: openAI(server).generate(request))
        #expect(error == .timeout)
        #expect(await server.waitUntil { $0.clientClosures == 1 })
    }

    @Test func errorObjectInsideTheStreamIsMapped() async throws {
        let server = try LoopbackHTTPServer([.sse([Self.happyStream[1],
                                                   sseData(#"{"error":{"message":"backend crashed","type":"server_error","code":503}}"#)])])
        defer { server.stop() }
        let error = await failure(of: openAI(server).generate(providerRequest()))
        #expect(error == .server(status: 503, message: "backend crashed"))
    }
}

extension JSONValue {
    var doubleValue: Double? {
        switch self {
        case .double(let d): d
        case .int(let i): Double(i)
        default: nil
        }
    }
}
