import Foundation
import SwitchboardCore

/// A request reshaped the way chat APIs want it: system text (instructions plus the memory note), then
/// user/assistant/tool turns ending with the prompt, images on the last user turn.
struct RemoteConversation: Sendable {
    struct Turn: Sendable {
        var role: ChatMessage.Role
        var text: String
        var images: [ImageAttachment]
        /// An assistant turn's tool calls.
        var toolCalls: [ToolCall] = []
        /// A `.tool` turn: the result it carries.
        var toolResult: ToolResult?
    }
    var system: [String]
    var turns: [Turn]

    init(_ request: GenerationRequest) throws {
        system = request.messages.filter { $0.role == .system }.map(\.content)
        if let memory = request.memory, let note = Self.memoryNote(memory) { system.append(note) }
        turns = try request.messages.filter { $0.role != .system }.map(Self.turn)
        if let prompt = request.prompt { turns.append(Turn(role: .user, text: prompt, images: [])) }
        if !request.images.isEmpty {
            if let last = turns.indices.last, turns[last].role == .user {
                turns[last].images = request.images
            } else {
                turns.append(Turn(role: .user, text: "", images: request.images))
            }
        }
        guard !turns.isEmpty else {
            throw ProviderError.invalidRequest("the request has no prompt, user message or image to send")
        }
        // A resumed answer: the reply so far as the assistant's unfinished turn, which chat APIs
        // continue (Anthropic's prefill, llama.cpp/vLLM/Ollama's continued final message, Gemini's
        // trailing model turn).
        if let prefix = request.answerPrefix, !prefix.isEmpty {
            turns.append(Turn(role: .assistant, text: prefix, images: []))
        }
    }

    var systemText: String? { system.isEmpty ? nil : system.joined(separator: "\n\n") }

    /// The memory as one system note, most relevant items first.
    static func memoryNote(_ memory: MemoryContext) -> String? {
        guard !memory.isEmpty else { return nil }
        var lines = ["Context the app remembers about this conversation (use it only when relevant):"]
        if !memory.entities.isEmpty { lines.append("- Known entities: " + memory.entities.joined(separator: ", ")) }
        let items = (memory.shortTerm + memory.longTerm + memory.notes).enumerated()
            .sorted { $0.element.relevance != $1.element.relevance ? $0.element.relevance > $1.element.relevance : $0.offset < $1.offset }
        lines += items.map { "- " + $0.element.text }
        return lines.joined(separator: "\n")
    }

    /// The schema text as JSON, or an invalid-request error naming the problem.
    static func schema(_ output: OutputFormat) throws -> JSONValue? {
        guard case .jsonSchema(let text) = output else { return nil }
        guard let schema = try? JSONValue.decode(Data(text.utf8)), schema.objectValue != nil else {
            throw ProviderError.invalidRequest("the output JSON schema is not a JSON object")
        }
        return schema
    }
}

/// A whole (non-streamed) reply.
struct RemoteReply: Sendable {
    var text: String
    var finish: FinishReason
    var usage: TokenUsage?
    var toolCalls: [ToolCall] = []
}

/// One API's request building and reply parsing; the shared `RemoteCall` does the rest.
protocol RemoteWireFormat: Sendable {
    associatedtype Decoder: RemoteStreamDecoder
    var dialect: APIDialect { get }
    var requiresKey: Bool { get }
    func httpRequest(for request: ProviderRequest, key: APIKey?, streaming: Bool) throws -> HTTPRequest
    /// `maxToolArgumentBytes` bounds the tool calls the reply may carry.
    func decodeReply(_ body: Data, errors: APIErrorMapper, maxToolArgumentBytes: Int) throws -> RemoteReply
    func makeDecoder(maxToolArgumentBytes: Int) -> Decoder
}

/// Turns one API's stream events into text, remembering finish reason, usage and tool calls.
protocol RemoteStreamDecoder: Sendable {
    /// Text pieces carried by `event`; throws the API's in-stream errors.
    mutating func decode(_ event: SSEEvent, errors: APIErrorMapper) throws -> [String]
    /// The completion marker has been seen; nothing after it matters.
    var isDone: Bool { get }
    /// At the end of the stream: the outcome, or `malformedResponse` when no completion marker came.
    func result() throws -> (FinishReason, TokenUsage?)
    /// Tool-call bytes received so far: fragments are progress, though they are not text.
    var toolBytesReceived: Int { get }
    /// At the end of the stream: the assembled tool calls (`malformedResponse` for broken ones).
    func toolCalls() throws -> [ToolCall]
}

extension RemoteStreamDecoder {
    static func json(_ event: SSEEvent) throws -> JSONValue {
        guard let json = try? JSONValue.decode(Data(event.data.utf8)) else {
            throw ProviderError.malformedResponse("a stream event is not valid JSON")
        }
        return json
    }
}

extension JSONValue {
    static func base64(_ image: ImageAttachment) -> JSONValue { .string(image.data.base64EncodedString()) }
}

/// Seeds as the APIs take them (signed; Gemini's are 32-bit).
func seedValue(_ seed: UInt64, bits: Int = 63) -> JSONValue {
    .int(Int(seed % (UInt64(1) << UInt64(bits))))
}

/// A URL from a literal known to be valid; a placeholder rather than a crash if it ever is not.
func constantURL(_ text: String) -> URL {
    URL(string: text) ?? URL(fileURLWithPath: "/invalid-url")
}

/// `base` + "/" + `path`, without doubling slashes.
func endpoint(_ base: URL, _ path: String, query: String? = nil) throws -> URL {
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    text += "/" + path
    if let query { text += "?" + query }
    guard let url = URL(string: text) else { throw ProviderError.invalidRequest("cannot build a URL from the base URL and \(path)") }
    return url
}
