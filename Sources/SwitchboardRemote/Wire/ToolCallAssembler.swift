import Foundation
import SwitchboardCore

/// Joins a reply's tool calls from what the API sends: streamed argument fragments keyed by the
/// call's index (OpenAI `delta.tool_calls`, Anthropic `input_json_delta`) or whole calls (Gemini,
/// non-streamed replies). Bounded: the arguments of all calls together stay under a byte cap and
/// the calls under a count cap, so a hostile server cannot grow memory. Calls are handed on only
/// when the reply has finished and each one's arguments parse as a JSON object.
struct ToolCallAssembler: Sendable {
    static let maxCalls = 64
    let maxArgumentBytes: Int
    private var calls: [Partial] = []
    private var positions: [Int: Int] = [:]
    /// Argument bytes received so far (also tells the watchdog that the reply is progressing).
    private(set) var receivedBytes = 0

    private struct Partial: Sendable {
        var id: String?
        var name: String?
        var arguments: String
    }

    init(maxArgumentBytes: Int) { self.maxArgumentBytes = max(1, maxArgumentBytes) }

    var isEmpty: Bool { calls.isEmpty }

    /// Adds what one event carries for the call at `index`: its id and name when it starts, then
    /// argument fragments in order.
    mutating func add(index: Int, id: String? = nil, name: String? = nil, fragment: String = "") throws {
        let position: Int
        if let known = positions[index] {
            position = known
        } else {
            guard calls.count < Self.maxCalls else {
                throw ProviderError.malformedResponse("the reply has more than \(Self.maxCalls) tool calls")
            }
            position = calls.count
            positions[index] = position
            calls.append(Partial(arguments: ""))
        }
        // Ids and names count against the cap too: only the first of each is kept.
        receivedBytes = receivedBytes.saturatingAdd(fragment.utf8.count).saturatingAdd(id?.utf8.count ?? 0)
            .saturatingAdd(name?.utf8.count ?? 0)
        guard receivedBytes <= maxArgumentBytes else {
            throw ProviderError.responseTooLarge(what: "the tool call arguments", limit: maxArgumentBytes)
        }
        if let id, !id.isEmpty, calls[position].id == nil { calls[position].id = id }
        if let name, !name.isEmpty, calls[position].name == nil { calls[position].name = name }
        calls[position].arguments += fragment
    }

    /// A whole call (its arguments as a JSON value), as Gemini and non-streamed replies send them.
    mutating func add(id: String?, name: String?, arguments: JSONValue?) throws {
        let text = try arguments.map { String(decoding: try $0.encoded(), as: UTF8.self) } ?? "{}"
        try add(index: -1 - calls.count, id: id, name: name, fragment: text)
    }

    /// The finished calls in the order they began; a call without a name, or whose arguments are not
    /// a JSON object, is a `malformedResponse` (retryable: the reply was broken, not the request).
    func finish() throws -> [ToolCall] {
        var result: [ToolCall] = []
        for (position, call) in calls.enumerated() {
            guard let name = call.name, !name.isEmpty else {
                throw ProviderError.malformedResponse("tool call \(position) of the reply has no name")
            }
            let trimmed = call.arguments.trimmingCharacters(in: .whitespacesAndNewlines)
            let arguments = trimmed.isEmpty ? "{}" : trimmed
            guard let json = try? JSONValue.decode(Data(arguments.utf8)), json.objectValue != nil else {
                throw ProviderError.malformedResponse("the arguments of tool call \(position) (\(name.prefix(64))) are not a JSON object")
            }
            result.append(ToolCall(id: call.id ?? "call_\(position)", name: name, arguments: arguments))
        }
        return result
    }

    /// `.toolCalls` when the reply called tools and otherwise ended normally.
    static func finish(_ reason: FinishReason, calls: [ToolCall]) -> FinishReason {
        calls.isEmpty || reason != .stop ? reason : .toolCalls
    }
}
