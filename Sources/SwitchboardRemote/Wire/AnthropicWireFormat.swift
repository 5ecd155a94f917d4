import Foundation
import SwitchboardCore

/// Anthropic's Messages API (`POST {base}/messages`, version 2023-06-01).
struct AnthropicWireFormat: RemoteWireFormat {
    static let apiVersion = "2023-06-01"
    var baseURL: URL
    var model: String
    var extraHeaders: [String: String]

    var dialect: APIDialect { .anthropic }
    var requiresKey: Bool { true }

    func httpRequest(for request: ProviderRequest, key: APIKey?, streaming: Bool) throws -> HTTPRequest {
        let generation = request.request
        let conversation = try RemoteConversation(generation)
        let messages: [JSONValue] = try conversation.groupedTurns.map(Self.message)
        let system = conversation.system
        var body: [String: JSONValue] = [
            "model": .string(model), "messages": .array(messages), "max_tokens": .int(generation.maxTokens),
            "temperature": .double(min(1, generation.sampling.temperature)),
        ]
        body.merge(try Self.toolFields(generation, answerSchema: try RemoteConversation.schema(generation.output))) { _, tool in tool }
        if streaming { body["stream"] = true }
        if !system.isEmpty { body["system"] = .string(system.joined(separator: "\n\n")) }
        if let topP = generation.sampling.topP { body["top_p"] = .double(topP) }
        if let topK = generation.sampling.topK { body["top_k"] = .int(topK) }
        if !generation.sampling.stopSequences.isEmpty {
            body["stop_sequences"] = .array(generation.sampling.stopSequences.map { .string($0) })
        }
        var headers = extraHeaders
        headers["Content-Type"] = "application/json"
        headers["Accept"] = streaming ? "text/event-stream" : "application/json"
        headers["anthropic-version"] = Self.apiVersion
        if let key { headers["x-api-key"] = key.revealForAuthenticationHeader() }
        return HTTPRequest(url: try endpoint(baseURL, "messages"), headers: headers, body: try JSONValue.object(body).encoded())
    }

    func decodeReply(_ body: Data, errors: APIErrorMapper, maxToolArgumentBytes: Int) throws -> RemoteReply {
        guard let json = try? JSONValue.decode(body) else { throw ProviderError.malformedResponse("the reply is not valid JSON") }
        if json["type"]?.stringValue == "error" { throw AnthropicStreamDecoder.error(json, body: body, errors: errors) }
        guard let content = json["content"]?.arrayValue else { throw ProviderError.malformedResponse("the reply has no content") }
        // A forced answer tool's input is the JSON document; otherwise the text blocks are the answer.
        let (text, calls) = try Self.reply(content, maxToolArgumentBytes: maxToolArgumentBytes)
        let usage = json["usage"].map { ReportedUsage.usage(prompt: $0["input_tokens"], completion: [$0["output_tokens"]]) }
        let finish = try AnthropicStreamDecoder.finishReason(json["stop_reason"]?.stringValue)
        return RemoteReply(text: text, finish: ToolCallAssembler.finish(finish, calls: calls), usage: usage, toolCalls: calls)
    }

    func makeDecoder(maxToolArgumentBytes: Int) -> AnthropicStreamDecoder { AnthropicStreamDecoder(maxToolArgumentBytes: maxToolArgumentBytes) }
}

/// `message_start` → `content_block_*` → `message_delta` → `message_stop`, with `ping` and `error`.
struct AnthropicStreamDecoder: RemoteStreamDecoder {
    private var inputTokens: Int?
    private var outputTokens: Int?
    private var finish: FinishReason?
    private(set) var isDone = false
    var tools: ToolCallAssembler
    /// Indexes of content blocks that are calls of the caller's tools.
    var toolBlocks: Set<Int> = []

    init(maxToolArgumentBytes: Int) { tools = ToolCallAssembler(maxArgumentBytes: maxToolArgumentBytes) }

    var toolBytesReceived: Int { tools.receivedBytes }
    func toolCalls() throws -> [ToolCall] { try tools.finish() }

    mutating func decode(_ event: SSEEvent, errors: APIErrorMapper) throws -> [String] {
        if event.type == "ping" { return [] }
        let json = try Self.json(event)
        switch json["type"]?.stringValue ?? event.type {
        case "message_start":
            let usage = json["message"]?["usage"]
            inputTokens = Self.count(usage?["input_tokens"]) ?? inputTokens
            outputTokens = Self.count(usage?["output_tokens"]) ?? outputTokens
        case "content_block_delta":
            switch json["delta"]?["type"]?.stringValue {
            case "text_delta": if let text = json["delta"]?["text"]?.stringValue { return [text] }
            // A tool's input, streamed as pieces of its JSON document: the answer tool's is the text.
            case "input_json_delta":
                if let piece = json["delta"]?["partial_json"]?.stringValue, let text = try inputPiece(json, piece) { return [text] }
            default: break
            }
        case "content_block_start":
            try startBlock(json)
        case "message_delta":
            if let reason = json["delta"]?["stop_reason"]?.stringValue { finish = try Self.finishReason(reason) }
            inputTokens = Self.count(json["usage"]?["input_tokens"]) ?? inputTokens
            outputTokens = Self.count(json["usage"]?["output_tokens"]) ?? outputTokens
        case "message_stop":
            isDone = true
        case "error":
            throw Self.error(json, body: Data(event.data.utf8), errors: errors)
        default:
            break // ping, content_block_stop, and event types added later
        }
        return []
    }

    func result() throws -> (FinishReason, TokenUsage?) {
        guard isDone else { throw ProviderError.malformedResponse("the stream ended without message_stop") }
        let usage = (inputTokens != nil || outputTokens != nil)
            ? TokenUsage(promptTokens: inputTokens ?? 0, completionTokens: outputTokens ?? 0) : nil
        return (finish ?? .stop, usage)
    }

    /// A reported count, clamped; nil when the field is absent.
    static func count(_ value: JSONValue?) -> Int? { value == nil || value == .null ? nil : ReportedUsage.count(value) }

    static func finishReason(_ reason: String?) throws -> FinishReason {
        switch reason {
        case "max_tokens": return .length
        case "refusal": throw ProviderError.contentPolicy("the model refused to answer")
        default: return .stop
        }
    }

    /// Error objects carry a type instead of a status; map the type to the status it stands for.
    static func error(_ json: JSONValue, body: Data, errors: APIErrorMapper) -> ProviderError {
        let status: Int = switch json["error"]?["type"]?.stringValue {
        case "invalid_request_error": 400
        case "authentication_error": 401
        case "permission_error": 403
        case "not_found_error": 404
        case "request_too_large": 413
        case "rate_limit_error": 429
        case "overloaded_error": 529
        default: 500
        }
        return errors.map(status: status, headers: [:], body: body)
    }
}
