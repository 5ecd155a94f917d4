import Foundation
import SwitchboardCore

/// Chat Completions (`POST {base}/chat/completions`) as OpenAI, llama.cpp, Ollama, vLLM and LM Studio
/// speak it.
struct OpenAIWireFormat: RemoteWireFormat {
    var baseURL: URL
    var model: String
    var includeStreamUsage: Bool
    var strictJSONSchema: Bool
    var sendExtendedSampling: Bool
    var responseFormatStyle: RemoteProvider.OpenAIOptions.ResponseFormat
    var extraHeaders: [String: String]

    var dialect: APIDialect { .openAI }
    var requiresKey: Bool { false }

    func httpRequest(for request: ProviderRequest, key: APIKey?, streaming: Bool) throws -> HTTPRequest {
        let generation = request.request
        let conversation = try RemoteConversation(generation)
        var messages: [JSONValue] = []
        if let system = conversation.systemText { messages.append(["role": "system", "content": .string(system)]) }
        for turn in conversation.turns {
            if let message = Self.toolMessage(turn) { messages.append(message); continue }
            let content: JSONValue = turn.images.isEmpty ? .string(turn.text) : .array(
                (turn.text.isEmpty ? [] : [["type": "text", "text": .string(turn.text)]])
                    + turn.images.map { image in
                        ["type": "image_url",
                         "image_url": ["url": .string("data:\(image.mimeType);base64,\(image.data.base64EncodedString())")]]
                    })
            messages.append(["role": .string(turn.role.rawValue), "content": content])
        }
        var body: [String: JSONValue] = [
            "model": .string(model), "messages": .array(messages), "stream": .bool(streaming),
            "max_tokens": .int(generation.maxTokens), "temperature": .double(generation.sampling.temperature),
        ]
        if streaming, includeStreamUsage { body["stream_options"] = ["include_usage": true] }
        let sampling = generation.sampling
        if let topP = sampling.topP { body["top_p"] = .double(topP) }
        if let seed = sampling.seed { body["seed"] = seedValue(seed) }
        if !sampling.stopSequences.isEmpty { body["stop"] = .array(sampling.stopSequences.map { .string($0) }) }
        if sendExtendedSampling {
            if let topK = sampling.topK { body["top_k"] = .int(topK) }
            if let minP = sampling.minP { body["min_p"] = .double(minP) }
            if let penalty = sampling.repetitionPenalty { body["repeat_penalty"] = .double(penalty) }
        }
        if let schema = try RemoteConversation.schema(generation.output) { body["response_format"] = responseFormat(schema) }
        body.merge(try toolFields(generation)) { _, tool in tool }
        var headers = extraHeaders
        headers["Content-Type"] = "application/json"
        headers["Accept"] = streaming ? "text/event-stream" : "application/json"
        if let key { headers["Authorization"] = "Bearer " + key.revealForAuthenticationHeader() }
        return HTTPRequest(url: try endpoint(baseURL, "chat/completions"), headers: headers,
                           body: try JSONValue.object(body).encoded())
    }

    func decodeReply(_ body: Data, errors: APIErrorMapper, maxToolArgumentBytes: Int) throws -> RemoteReply {
        guard let json = try? JSONValue.decode(body) else { throw ProviderError.malformedResponse("the reply is not valid JSON") }
        // `"error": null` is a field some servers always send; only an actual error object is one.
        if let error = json["error"], error != .null { throw errors.map(status: Self.status(error), headers: [:], body: body) }
        guard let choice = json["choices"]?[0], let message = choice["message"] else {
            throw ProviderError.malformedResponse("the reply has no choices[0].message")
        }
        let finish = try OpenAIStreamDecoder.finishReason(choice["finish_reason"]?.stringValue)
        let calls = try Self.toolCalls(message, maxArgumentBytes: maxToolArgumentBytes)
        return RemoteReply(text: message["content"]?.stringValue ?? "", finish: ToolCallAssembler.finish(finish, calls: calls),
                           usage: OpenAIStreamDecoder.usage(json["usage"]), toolCalls: calls)
    }

    /// The HTTP status an error object stands for: its numeric `code` when that is one, else 500.
    static func status(_ error: JSONValue) -> Int {
        error["code"]?.intValue.flatMap { (400...599).contains($0) ? $0 : nil } ?? 500
    }

    func makeDecoder(maxToolArgumentBytes: Int) -> OpenAIStreamDecoder { OpenAIStreamDecoder(maxToolArgumentBytes: maxToolArgumentBytes) }
}

/// `data:` chunks of `chat.completion.chunk` objects, then `data: [DONE]`.
struct OpenAIStreamDecoder: RemoteStreamDecoder {
    private var finish: FinishReason?
    private var usage: TokenUsage?
    private(set) var isDone = false
    var tools: ToolCallAssembler

    init(maxToolArgumentBytes: Int) { tools = ToolCallAssembler(maxArgumentBytes: maxToolArgumentBytes) }

    var toolBytesReceived: Int { tools.receivedBytes }
    func toolCalls() throws -> [ToolCall] { try tools.finish() }

    mutating func decode(_ event: SSEEvent, errors: APIErrorMapper) throws -> [String] {
        if event.data.trimmingCharacters(in: .whitespaces) == "[DONE]" { isDone = true; return [] }
        let json = try Self.json(event)
        if let error = json["error"], error != .null {
            throw errors.map(status: OpenAIWireFormat.status(error), headers: [:], body: Data(event.data.utf8))
        }
        if let reported = Self.usage(json["usage"]) { usage = reported }
        var pieces: [String] = []
        for choice in json["choices"]?.arrayValue ?? [] where (choice["index"]?.intValue ?? 0) == 0 {
            if let text = choice["delta"]?["content"]?.stringValue { pieces.append(text) }
            try absorbToolCalls(choice["delta"])
            if let reason = choice["finish_reason"]?.stringValue { finish = try Self.finishReason(reason) }
        }
        return pieces
    }

    func result() throws -> (FinishReason, TokenUsage?) {
        guard isDone else { throw ProviderError.malformedResponse("the stream ended without its [DONE] marker") }
        return (finish ?? .stop, usage)
    }

    static func finishReason(_ reason: String?) throws -> FinishReason {
        switch reason {
        case "length": return .length
        case "tool_calls", "function_call": return .toolCalls
        case "content_filter": throw ProviderError.contentPolicy("the reply was stopped by the provider's content filter")
        default: return .stop
        }
    }

    static func usage(_ value: JSONValue?) -> TokenUsage? {
        guard let value, value.objectValue != nil else { return nil }
        return ReportedUsage.usage(prompt: value["prompt_tokens"], completion: [value["completion_tokens"]])
    }
}
