import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

/// Schemas in each API's own wire format, and valid JSON replies passing through, over loopback HTTP.
@Suite("Structured output on the remote providers")
struct StructuredWireFormatTests {
    static let schema = #"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},"required":["name","age"]}"#
    static var schemaJSON: JSONValue { (try? JSONValue.decode(Data(schema.utf8))) ?? .null }
    static let document = #"{"name":"Ada","age":36}"#
    static let request = providerRequest("Who wrote the first program?", output: .jsonSchema(schema))

    static func openAIStream(_ pieces: [String]) -> [String] {
        pieces.map { piece in
            sseData(#"{"choices":[{"index":0,"delta":{"content":\#(GeneratedContent.quoted(piece))},"finish_reason":null}]}"#)
        } + [sseData(#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#), "data: [DONE]\n\n"]
    }

    @Test func openAISendsAStrictJSONSchemaAndAValidStreamPassesThrough() async throws {
        let server = try LoopbackHTTPServer([.sse(Self.openAIStream([#"{"name":"Ada","#, #""age":36}"#]))])
        defer { server.stop() }
        let result = try await collect(openAI(server).generate(Self.request))
        #expect(result.text == Self.document)
        #expect(result.pieces.count == 2, "held until valid, then delivered piece by piece")
        let format = try #require(server.requests.first?.json?["response_format"])
        #expect(format["type"] == "json_schema")
        #expect(format["json_schema"]?["name"] == "response")
        #expect(format["json_schema"]?["strict"] == true)
        #expect(format["json_schema"]?["schema"] == [
            "type": "object", "additionalProperties": false, "required": ["name", "age"],
            "properties": ["name": ["type": "string"], "age": ["type": "integer", "minimum": 0]],
        ], "strict mode needs every object closed")
    }

    @Test func aSchemaOutsideStrictModesSubsetGoesNonStrictAndUnchanged() async throws {
        let optional = #"{"type":"object","properties":{"name":{"type":"string"},"nickname":{"type":"string"}},"required":["name"]}"#
        let server = try LoopbackHTTPServer([.sse(Self.openAIStream([#"{"name":"Ada"}"#]))])
        defer { server.stop() }
        let result = try await collect(openAI(server).generate(providerRequest(output: .jsonSchema(optional))))
        #expect(result.text == #"{"name":"Ada"}"#)
        let format = try #require(server.requests.first?.json?["response_format"])
        #expect(format["json_schema"]?["strict"] == false)
        #expect(format["json_schema"]?["schema"] == (try JSONValue.decode(Data(optional.utf8))))
    }

    @Test func llamaCppPythonStyleSendsJSONObjectWithTheSchema() async throws {
        let reply = #"{"choices":[{"index":0,"message":{"role":"assistant","content":"{\"name\":\"Ada\",\"age\":36}"},"finish_reason":"stop"}]}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let provider = RemoteProvider.openAI(model: "gemma", baseURL: server.baseURL.appendingPathComponent("v1"),
                                             options: .init(responseFormat: .jsonObjectWithSchema), settings: settings(streaming: false))
        let result = try await collect(provider.generate(Self.request))
        #expect(result.text == Self.document)
        #expect(server.requests.first?.json?["response_format"] == ["type": "json_object", "schema": Self.schemaJSON])
    }

    /// The forced answer tool's input, streamed in pieces.
    static let anthropicAnswer = [
        sseEvent("message_start",
                 #"{"type":"message_start","message":{"id":"m1","role":"assistant","content":[],"usage":{"input_tokens":30,"output_tokens":1}}}"#),
        sseEvent("content_block_start",
                 #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"json_answer","input":{}}}"#),
        sseEvent("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}"#),
        sseEvent("content_block_delta",
                 #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"name\": \"Ad"}}"#),
        sseEvent("content_block_delta",
                 #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"a\", \"age\": 36}"}}"#),
        sseEvent("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        sseEvent("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":12}}"#),
        sseEvent("message_stop", #"{"type":"message_stop"}"#),
    ]

    @Test func anthropicForcesTheAnswerToolAndAssemblesItsStreamedInput() async throws {
        let server = try LoopbackHTTPServer([.sse(Self.anthropicAnswer)])
        defer { server.stop() }
        let result = try await collect(anthropic(server).generate(Self.request))
        #expect(result.text == #"{"name": "Ada", "age": 36}"#)
        #expect(result.finish == .stop)
        let body = try #require(server.requests.first?.json)
        #expect(body["tools"]?[0]?["name"] == "json_answer")
        #expect(body["tools"]?[0]?["description"]?.stringValue?.isEmpty == false)
        #expect(body["tools"]?[0]?["input_schema"] == Self.schemaJSON)
        #expect(body["tool_choice"] == ["type": "tool", "name": "json_answer"])
        #expect(body["system"] == nil, "the schema travels as the tool, not in the instructions")
    }

    @Test func anthropicWholeReplyUsesTheToolInput() async throws {
        let reply = #"{"id":"m1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"json_answer","input":{"name":"Ada","age":36}}],"stop_reason":"tool_use","usage":{"input_tokens":30,"output_tokens":12}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let result = try await collect(anthropic(server, settings: settings(streaming: false)).generate(Self.request))
        #expect(try JSONValue.decode(Data(result.text.utf8)) == ["name": "Ada", "age": 36])
    }

    @Test func anthropicRefusesANonObjectSchemaBeforeSending() async throws {
        let server = try LoopbackHTTPServer([])
        defer { server.stop() }
        let list = providerRequest(output: .jsonSchema(#"{"type":"array","items":{"type":"string"}}"#))
        let error = await failure(of: anthropic(server).generate(list))
        guard case .invalidRequest(let message)? = error else { Issue.record("expected invalidRequest, got \(String(describing: error))"); return }
        #expect(message.contains("object"))
        #expect(error?.classification == .fallbackOnly)
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: [true, false])
    func geminiSendsItsOwnSchemaDialectAndAValidReplyPassesThrough(_ streaming: Bool) async throws {
        let parts = [#"{\"name\":\"Ada\","#,
                     #"\"age\":36}"#].map { #"{"candidates":[{"content":{"parts":[{"text":"\#($0)"}],"role":"model"},"index":0}]}"# }
        let last = #"{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}]}"#
        let whole = #"{"candidates":[{"content":{"parts":[{"text":"{\"name\":\"Ada\",\"age\":36}"}],"role":"model"},"finishReason":"STOP"}]}"#
        let server = try LoopbackHTTPServer([streaming ? .sse((parts + [last]).map(sseData)) : .json(200, whole)])
        defer { server.stop() }
        let schema = #"{"type":"object","description":"a person","properties":{"name":{"type":"string","enum":["Ada","Alan"]},"age":{"type":["integer","null"],"maximum":150},"tags":{"type":"array","items":{"type":"string"},"maxItems":3}},"required":["name","age"]}"#
        let result = try await collect(gemini(server,
                                              settings: settings(streaming: streaming)).generate(providerRequest(output: .jsonSchema(schema))))
        #expect(result.text == Self.document)
        let config = try #require(server.requests.first?.json?["generationConfig"])
        #expect(config["responseMimeType"] == "application/json")
        #expect(config["responseSchema"] == [
            "type": "OBJECT", "description": "a person",
            "properties": [
                "name": ["type": "STRING", "format": "enum", "enum": ["Ada", "Alan"]],
                "age": ["type": "INTEGER", "maximum": 150, "nullable": true],
                "tags": ["type": "ARRAY", "items": ["type": "STRING"], "maxItems": 3],
            ],
            "propertyOrdering": ["name", "age", "tags"], "required": ["name", "age"],
        ])
    }

    @Test(arguments: [#"{"type":"object","properties":{"extra":{"type":"object"}}}"#, #"{"type":"object","properties":{"n":{"type":"null"}}}"#])
    func aSchemaGeminiCannotExpressIsATypedError(_ schema: String) async throws {
        let server = try LoopbackHTTPServer([])
        defer { server.stop() }
        let error = await failure(of: gemini(server).generate(providerRequest(output: .jsonSchema(schema))))
        guard case .invalidRequest(let message)? = error else { Issue.record("expected invalidRequest, got \(String(describing: error))"); return }
        #expect(message.contains("responseSchema cannot express the schema at #/properties/"))
        #expect(error?.classification == .fallbackOnly, "another provider may take it")
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: [true, false])
    func anInvalidReplyIsARetryableMalformedResponseAndNothingIsDelivered(_ streaming: Bool) async throws {
        let invalid = #"{"name":"Ada","age":"thirty-six"}"#
        let reply: LoopbackReply = streaming
            ? .sse(Self.openAIStream([invalid]))
            : .json(200, #"{"choices":[{"index":0,"message":{"content":\#(GeneratedContent.quoted(invalid))},"finish_reason":"stop"}]}"#)
        let server = try LoopbackHTTPServer([reply])
        defer { server.stop() }
        var delivered: [String] = []
        var rejection: ProviderError?
        do {
            for try await event in openAI(server, settings: settings(streaming: streaming)).generate(Self.request) {
                if case .token(let piece) = event { delivered.append(piece) }
            }
        } catch { rejection = error as? ProviderError }
        let error = rejection
        guard case .malformedResponse(let message)? = error else { Issue.record("expected malformedResponse, got \(String(describing: error))"); return }
        #expect(message.contains("$.age"))
        #expect(error?.isRetryable == true)
        #expect(delivered.isEmpty, "an invalid document never reaches the caller")
    }
}
