import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Anthropic `tool_use`/`tool_result` and Gemini `functionDeclarations`/`functionCall`/`functionResponse`.
@Suite("Tool calling on Anthropic and Gemini")
struct ToolWireFormatOtherAPITests {
    typealias Fixture = ToolWireFormatTests

    // MARK: Anthropic

    static func anthropicStream(_ deltas: [String]) -> [String] {
        [
            sseEvent("message_start", #"{"type":"message_start","message":{"id":"m1","role":"assistant","content":[],"usage":{"input_tokens":30,"output_tokens":1}}}"#),
            sseEvent("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            sseEvent("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking."}}"#),
            sseEvent("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            sseEvent("content_block_start",
                     #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"weather","input":{}}}"#),
        ] + deltas.map { piece in
            sseEvent("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":\#(GeneratedContent.quoted(piece))}}"#)
        } + [
            sseEvent("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
            sseEvent("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":12}}"#),
            sseEvent("message_stop", #"{"type":"message_stop"}"#),
        ]
    }

    @Test func anthropicSendsTheToolsAndAssemblesAStreamedToolUse() async throws {
        let server = try LoopbackHTTPServer([.sse(Self.anthropicStream(["", #"{"city""#, #": "Par"#, #"is"}"#]))])
        defer { server.stop() }
        let result = try await collect(anthropic(server, settings: Fixture.settings()).generate(Fixture.request()))
        #expect(result.text == "Checking.", "text before the call still streams")
        #expect(result.toolCalls == [ToolCall(id: "toolu_1", name: "weather", arguments: #"{"city": "Paris"}"#)])
        #expect(result.finish == .toolCalls)
        let body = try #require(server.requests.first?.json)
        #expect(body["tools"] == [["name": "weather", "description": "The weather in a city.", "input_schema": Fixture.parametersJSON]])
        #expect(body["tool_choice"] == nil)
    }

    @Test func anthropicWholeReplyCarriesItsToolUse() async throws {
        let reply = #"{"id":"m1","type":"message","role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_2","name":"weather","input":{"city":"Oslo"}}],"stop_reason":"tool_use","usage":{"input_tokens":30,"output_tokens":12}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let result = try await collect(anthropic(server, settings: Fixture.settings(streaming: false)).generate(Fixture.request()))
        #expect(result.text == "Checking.")
        #expect(result.toolCalls == [ToolCall(id: "toolu_2", name: "weather", arguments: #"{"city":"Oslo"}"#)])
        #expect(result.finish == .toolCalls)
    }

    @Test func anthropicEncodesTheRoundTripWithEveryResultInOneUserTurn() async throws {
        let reply = #"{"id":"m2","type":"message","role":"assistant","content":[{"type":"text","text":"Sunny."}],"stop_reason":"end_turn","usage":{"input_tokens":40,"output_tokens":3}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let result = try await collect(anthropic(server, settings: Fixture.settings(streaming: false)).generate(Fixture.request(Fixture.roundTrip,
            choice: .none)))
        #expect(result.text == "Sunny." && result.finish == .stop)
        let body = try #require(server.requests.first?.json)
        #expect(body["tool_choice"] == ["type": "none"])
        #expect(body["system"] == "Be brief.")
        #expect(body["messages"] == [
            ["role": "user", "content": [["type": "text", "text": "Weather in Paris and Rome?"]]],
            ["role": "assistant", "content": [
                ["type": "text", "text": "Checking."],
                ["type": "tool_use", "id": "c1", "name": "weather", "input": ["city": "Paris"]],
                ["type": "tool_use", "id": "c2", "name": "weather", "input": ["city": "Rome"]],
            ]],
            ["role": "user", "content": [
                ["type": "tool_result", "tool_use_id": "c1", "content": "sunny"],
                ["type": "tool_result", "tool_use_id": "c2", "content": "no such city", "is_error": true],
            ]],
        ])
    }

    @Test func anthropicStructuredAnswerWithToolsOffersBothAndTheAnswerStaysText() async throws {
        let server = try LoopbackHTTPServer([.sse(StructuredWireFormatTests.anthropicAnswer)])
        defer { server.stop() }
        var request = Fixture.request()
        request.request.output = .jsonSchema(StructuredWireFormatTests.schema)
        let result = try await collect(anthropic(server, settings: Fixture.settings()).generate(request))
        #expect(result.text == #"{"name": "Ada", "age": 36}"# && result.toolCalls.isEmpty && result.finish == .stop)
        let body = try #require(server.requests.first?.json)
        #expect(body["tools"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["weather", "json_answer"])
        #expect(body["tool_choice"] == ["type": "any"])
    }

    @Test func anthropicGarbageInputIsAMalformedResponse() async throws {
        let server = try LoopbackHTTPServer([.sse(Self.anthropicStream([#"{"city": Paris"#]))])
        defer { server.stop() }
        let error = await failure(of: anthropic(server, settings: Fixture.settings()).generate(Fixture.request()))
        guard case .malformedResponse? = error else { Issue.record("expected malformedResponse, got \(String(describing: error))"); return }
        #expect(error?.isRetryable == true)
    }

    // MARK: Gemini

    @Test(arguments: [true, false])
    func geminiDeclaresTheFunctionsAndReportsItsCall(_ streaming: Bool) async throws {
        let text = #"{"candidates":[{"content":{"parts":[{"text":"Checking."}],"role":"model"},"index":0}]}"#
        let call = #"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"weather","args":{"city":"Paris"}}}],"role":"model"},"finishReason":"STOP","index":0}]}"#
        let whole = #"{"candidates":[{"content":{"parts":[{"text":"Checking."},{"functionCall":{"name":"weather","args":{"city":"Paris"}}}],"role":"model"},"finishReason":"STOP"}]}"#
        let server = try LoopbackHTTPServer([streaming ? .sse([text, call].map(sseData)) : .json(200, whole)])
        defer { server.stop() }
        let result = try await collect(gemini(server, settings: Fixture.settings(streaming: streaming)).generate(Fixture.request()))
        #expect(result.text == "Checking.")
        #expect(result.toolCalls.map(\.name) == ["weather"])
        #expect(result.toolCalls.first?.arguments == #"{"city":"Paris"}"#)
        #expect(result.finish == .toolCalls)
        let body = try #require(server.requests.first?.json)
        #expect(body["tools"] == [["functionDeclarations": [[
            "name": "weather", "description": "The weather in a city.",
            "parameters": ["type": "OBJECT", "properties": ["city": ["type": "STRING"]], "propertyOrdering": ["city"], "required": ["city"]],
        ]]]])
        #expect(body["toolConfig"] == nil)
    }

    @Test func geminiEncodesTheRoundTrip() async throws {
        let reply = #"{"candidates":[{"content":{"parts":[{"text":"Sunny."}],"role":"model"},"finishReason":"STOP"}]}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let result = try await collect(gemini(server, settings: Fixture.settings(streaming: false)).generate(Fixture.request(Fixture.roundTrip,
            choice: .none)))
        #expect(result.text == "Sunny." && result.finish == .stop)
        let body = try #require(server.requests.first?.json)
        #expect(body["toolConfig"] == ["functionCallingConfig": ["mode": "NONE"]])
        #expect(body["contents"] == [
            ["role": "user", "parts": [["text": "Weather in Paris and Rome?"]]],
            ["role": "model", "parts": [
                ["text": "Checking."],
                ["functionCall": ["name": "weather", "args": ["city": "Paris"]]],
                ["functionCall": ["name": "weather", "args": ["city": "Rome"]]],
            ]],
            ["role": "user", "parts": [
                ["functionResponse": ["name": "weather", "response": ["output": "sunny"]]],
                ["functionResponse": ["name": "weather", "response": ["error": "no such city"]]],
            ]],
        ])
    }

    @Test func geminiCallsPastTheCapAreRefused() async throws {
        let big = String(repeating: "x", count: 4096)
        let call = #"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"weather","args":{"city":"\#(big)"}}}],"role":"model"},"finishReason":"STOP","index":0}]}"#
        let server = try LoopbackHTTPServer([.sse([sseData(call)])])
        defer { server.stop() }
        let error = await failure(of: gemini(server, settings: Fixture.settings(maxToolArgumentBytes: 1024)).generate(Fixture.request()))
        #expect(error == .responseTooLarge(what: "the tool call arguments", limit: 1024))
    }
}
