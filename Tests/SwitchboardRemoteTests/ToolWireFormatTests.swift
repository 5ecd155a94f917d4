import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Native tool calling in each API's wire format, over loopback HTTP: the tools in the request, calls
/// assembled from streamed fragments and from whole replies, the round trip of calls and results,
/// and broken or oversized argument streams as typed errors.
@Suite("Tool calling on the remote providers")
struct ToolWireFormatTests {
    static let weather = ToolDefinition(name: "weather", description: "The weather in a city.",
                                        parameters: .object([.init("city", .string())]))
    /// The schema as `GenerationSchema` exports it (objects closed).
    static let parametersJSON: JSONValue = ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"],
                                            "additionalProperties": false]

    static func request(_ messages: [ChatMessage] = [ChatMessage(.user, "Weather in Paris?")], choice: ToolChoice = .auto) -> ProviderRequest {
        var request = GenerationRequest(messages: messages, maxTokens: 64)
        request.tools = [weather]
        request.toolChoice = choice
        return ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public))
    }

    /// A finished round: the user asked, the model called `weather` (twice), both results came back.
    static let roundTrip: [ChatMessage] = [
        ChatMessage(.system, "Be brief."),
        ChatMessage(.user, "Weather in Paris and Rome?"),
        .assistant("Checking.", toolCalls: [ToolCall(id: "c1", name: "weather", arguments: #"{"city":"Paris"}"#),
                                            ToolCall(id: "c2", name: "weather", arguments: #"{"city":"Rome"}"#)]),
        .tool(ToolResult(callID: "c1", name: "weather", output: "sunny")),
        .tool(ToolResult(callID: "c2", name: "weather", output: "no such city", isError: true)),
    ]

    static func openAIChunk(_ toolCall: String, finish: String = "null") -> String {
        sseData(#"{"choices":[{"index":0,"delta":{"tool_calls":[\#(toolCall)]},"finish_reason":\#(finish)}]}"#)
    }

    static func settings(streaming: Bool = true, maxToolArgumentBytes: Int = 1 << 20) -> RemoteProviderSettings {
        // Generous: under the full test run the loopback server's thread can wait seconds for a core.
        RemoteProviderSettings(maxContextTokens: 4096, streaming: streaming, requestTimeout: .seconds(60), idleTimeout: .seconds(30),
                               maxToolArgumentBytes: maxToolArgumentBytes)
    }

    // MARK: OpenAI

    @Test func openAISendsTheToolsAndAssemblesAStreamedCall() async throws {
        let events = [
            Self.openAIChunk(#"{"index":0,"id":"call_1","type":"function","function":{"name":"weather","arguments":""}}"#),
            Self.openAIChunk(#"{"index":0,"function":{"arguments":"{\"ci"}}"#),
            Self.openAIChunk(#"{"index":0,"function":{"arguments":"ty\": \"Par"}}"#),
            Self.openAIChunk(#"{"index":0,"function":{"arguments":"is\"}"}}"#),
            sseData(#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#), "data: [DONE]\n\n",
        ]
        let server = try LoopbackHTTPServer([.sse(events)])
        defer { server.stop() }
        let result = try await collect(openAI(server, settings: Self.settings()).generate(Self.request()))
        #expect(result.toolCalls == [ToolCall(id: "call_1", name: "weather", arguments: #"{"city": "Paris"}"#)])
        #expect(result.finish == .toolCalls)
        #expect(result.text.isEmpty)
        let body = try #require(server.requests.first?.json)
        let function = try #require(body["tools"]?[0]?["function"])
        #expect(body["tools"]?[0]?["type"] == "function")
        #expect(function["name"] == "weather" && function["description"] == "The weather in a city.")
        #expect(function["strict"] == true)
        #expect(function["parameters"] == ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"],
                                           "additionalProperties": false])
        #expect(body["tool_choice"] == nil, "auto is the API's default")
    }

    @Test func openAIWholeReplyCarriesItsCalls() async throws {
        let reply = #"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_9","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":20,"completion_tokens":7}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let result = try await collect(openAI(server, settings: Self.settings(streaming: false)).generate(Self.request()))
        #expect(result.toolCalls == [ToolCall(id: "call_9", name: "weather", arguments: #"{"city":"Oslo"}"#)])
        #expect(result.finish == .toolCalls)
    }

    @Test func openAIEncodesTheRoundTrip() async throws {
        let server = try LoopbackHTTPServer([.json(200,
                                                   #"{"choices":[{"index":0,"message":{"content":"Sunny in Paris."},"finish_reason":"stop"}]}"#)])
        defer { server.stop() }
        let result = try await collect(openAI(server, settings: Self.settings(streaming: false)).generate(Self.request(Self.roundTrip,
            choice: .none)))
        #expect(result.text == "Sunny in Paris." && result.toolCalls.isEmpty && result.finish == .stop)
        let body = try #require(server.requests.first?.json)
        #expect(body["tool_choice"] == "none")
        #expect(body["messages"] == [
            ["role": "system", "content": "Be brief."],
            ["role": "user", "content": "Weather in Paris and Rome?"],
            ["role": "assistant", "content": "Checking.", "tool_calls": [
                ["id": "c1", "type": "function", "function": ["name": "weather", "arguments": #"{"city":"Paris"}"#]],
                ["id": "c2", "type": "function", "function": ["name": "weather", "arguments": #"{"city":"Rome"}"#]],
            ]],
            ["role": "tool", "tool_call_id": "c1", "content": "sunny"],
            ["role": "tool", "tool_call_id": "c2", "content": "no such city"],
        ])
    }

    @Test func brokenArgumentFragmentsAreAMalformedResponse() async throws {
        let events = [
            Self.openAIChunk(#"{"index":0,"id":"call_1","function":{"name":"weather","arguments":"{\"city\": "}}"#),
            Self.openAIChunk(#"{"index":0,"function":{"arguments":"Paris}"}}"#),
            sseData(#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#), "data: [DONE]\n\n",
        ]
        let server = try LoopbackHTTPServer([.sse(events)])
        defer { server.stop() }
        let error = await failure(of: openAI(server, settings: Self.settings()).generate(Self.request()))
        guard case .malformedResponse(let message)? = error else { Issue.record("expected malformedResponse, got \(String(describing: error))"); return }
        #expect(message.contains("not a JSON object"))
        #expect(error?.isRetryable == true)
    }

    @Test func anEndlessArgumentStreamStopsAtTheCap() async throws {
        let piece = String(repeating: "a", count: 512)
        let events = [Self.openAIChunk(#"{"index":0,"id":"call_1","function":{"name":"weather","arguments":"{\"city\":\""}}"#)]
            + Array(repeating: Self.openAIChunk(#"{"index":0,"function":{"arguments":"\#(piece)"}}"#), count: 8)
            + [Self.openAIChunk(#"{"index":0,"function":{"arguments":"\"}"}}"#, finish: "\"tool_calls\""), "data: [DONE]\n\n"]
        let server = try LoopbackHTTPServer([.sse(events)])
        defer { server.stop() }
        let error = await failure(of: openAI(server, settings: Self.settings(maxToolArgumentBytes: 2048)).generate(Self.request()))
        #expect(error == .responseTooLarge(what: "the tool call arguments", limit: 2048))
    }

    @Test func anInvalidToolNameIsRefusedBeforeSending() async throws {
        let server = try LoopbackHTTPServer([])
        defer { server.stop() }
        var request = Self.request()
        request.request.tools = [ToolDefinition(name: "get weather", description: "", parameters: .object([]))]
        let error = await failure(of: openAI(server, settings: Self.settings()).generate(request))
        guard case .invalidRequest(let message)? = error else { Issue.record("expected invalidRequest, got \(String(describing: error))"); return }
        #expect(message.contains("letters, digits"))
        #expect(server.requests.isEmpty)
    }
}
