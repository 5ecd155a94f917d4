import Foundation
import SwitchboardCore

/// Google's Gemini API: `models/{model}:generateContent` and `:streamGenerateContent?alt=sse`. The key
/// travels in `x-goog-api-key`, never in the URL, so logged URLs cannot leak it.
struct GeminiWireFormat: RemoteWireFormat {
    var baseURL: URL
    var model: String
    var extraHeaders: [String: String]

    var dialect: APIDialect { .gemini }
    var requiresKey: Bool { true }

    func httpRequest(for request: ProviderRequest, key: APIKey?, streaming: Bool) throws -> HTTPRequest {
        let generation = request.request
        let conversation = try RemoteConversation(generation)
        let contents: [JSONValue] = try conversation.groupedTurns.map(Self.content)
        var config: [String: JSONValue] = [
            "maxOutputTokens": .int(generation.maxTokens), "temperature": .double(generation.sampling.temperature),
        ]
        let sampling = generation.sampling
        if let topP = sampling.topP { config["topP"] = .double(topP) }
        if let topK = sampling.topK { config["topK"] = .int(topK) }
        if let seed = sampling.seed { config["seed"] = seedValue(seed, bits: 31) }
        if !sampling.stopSequences.isEmpty { config["stopSequences"] = .array(sampling.stopSequences.map { .string($0) }) }
        if let schema = try StructuredReplyCheck.schema(generation.output) {
            config["responseMimeType"] = "application/json"
            config["responseSchema"] = try Self.responseSchema(schema)
        }
        var body: [String: JSONValue] = ["contents": .array(contents), "generationConfig": .object(config)]
        body.merge(try Self.toolFields(generation)) { _, tool in tool }
        if let system = conversation.systemText { body["systemInstruction"] = ["parts": [["text": .string(system)]]] }
        let escapedModel = model.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: ":?#"))) ?? model
        let url = streaming
            ? try endpoint(baseURL, "models/\(escapedModel):streamGenerateContent", query: "alt=sse")
            : try endpoint(baseURL, "models/\(escapedModel):generateContent")
        var headers = extraHeaders
        headers["Content-Type"] = "application/json"
        if let key { headers["x-goog-api-key"] = key.revealForAuthenticationHeader() }
        return HTTPRequest(url: url, headers: headers, body: try JSONValue.object(body).encoded())
    }

    func decodeReply(_ body: Data, errors: APIErrorMapper, maxToolArgumentBytes: Int) throws -> RemoteReply {
        guard let json = try? JSONValue.decode(body) else { throw ProviderError.malformedResponse("the reply is not valid JSON") }
        var decoder = GeminiStreamDecoder(maxToolArgumentBytes: maxToolArgumentBytes)
        let text = try decoder.absorb(json, body: body, errors: errors).joined()
        let (finish, usage) = try decoder.result()
        let calls = try decoder.toolCalls()
        return RemoteReply(text: text, finish: ToolCallAssembler.finish(finish, calls: calls), usage: usage, toolCalls: calls)
    }

    func makeDecoder(maxToolArgumentBytes: Int) -> GeminiStreamDecoder { GeminiStreamDecoder(maxToolArgumentBytes: maxToolArgumentBytes) }
}

/// Each event is a whole `GenerateContentResponse`; the last carries `finishReason` and usage, and the
/// stream simply ends.
struct GeminiStreamDecoder: RemoteStreamDecoder {
    private var finish: FinishReason?
    private var usage: TokenUsage?
    var isDone: Bool { false }
    var tools: ToolCallAssembler

    init(maxToolArgumentBytes: Int) { tools = ToolCallAssembler(maxArgumentBytes: maxToolArgumentBytes) }

    var toolBytesReceived: Int { tools.receivedBytes }
    func toolCalls() throws -> [ToolCall] { try tools.finish() }

    mutating func decode(_ event: SSEEvent, errors: APIErrorMapper) throws -> [String] {
        try absorb(try Self.json(event), body: Data(event.data.utf8), errors: errors)
    }

    mutating func absorb(_ json: JSONValue, body: Data, errors: APIErrorMapper) throws -> [String] {
        if let error = json["error"], error != .null {
            let status = error["code"]?.intValue.flatMap { (400...599).contains($0) ? $0 : nil } ?? 500
            throw errors.map(status: status, headers: [:], body: body)
        }
        if let blocked = json["promptFeedback"]?["blockReason"]?.stringValue {
            throw ProviderError.contentPolicy("the prompt was blocked (\(blocked))")
        }
        if let metadata = json["usageMetadata"] {
            usage = ReportedUsage.usage(prompt: metadata["promptTokenCount"],
                                        completion: [metadata["candidatesTokenCount"], metadata["thoughtsTokenCount"]])
        }
        guard let candidate = json["candidates"]?[0] else { return [] }
        let parts = (candidate["content"]?["parts"]?.arrayValue ?? []).filter { $0["thought"] != .bool(true) }
        try absorbCalls(parts)
        let pieces = parts.compactMap { $0["text"]?.stringValue }
        if let reason = candidate["finishReason"]?.stringValue { finish = try Self.finishReason(reason) }
        return pieces
    }

    func result() throws -> (FinishReason, TokenUsage?) {
        guard let finish else { throw ProviderError.malformedResponse("the stream ended without a finishReason") }
        return (finish, usage)
    }

    static func finishReason(_ reason: String) throws -> FinishReason {
        switch reason {
        case "MAX_TOKENS": return .length
        case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY":
            throw ProviderError.contentPolicy("generation stopped: \(reason)")
        default: return .stop
        }
    }
}
