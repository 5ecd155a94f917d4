import Foundation
import SwitchboardCore

extension OpenAIWireFormat {
    /// `tools: [{type: "function", function: {name, description, parameters}}]`, strict when the
    /// parameters fit strict mode's subset (as for `response_format`), and `tool_choice: "none"`
    /// when the request wants text only. Nil without tools.
    func toolFields(_ request: GenerationRequest) throws -> [String: JSONValue] {
        let tools = try RemoteConversation.tools(request)
        guard !tools.isEmpty else { return [:] }
        let declared: [JSONValue] = try tools.map { tool in
            let schema = try JSONValue.decode(Data(tool.parameters.jsonSchemaText.utf8))
            var function: [String: JSONValue] = ["name": .string(tool.name), "description": .string(tool.description)]
            if strictJSONSchema, let strict = Self.strictSchema(schema) {
                function["parameters"] = strict
                function["strict"] = true
            } else {
                function["parameters"] = schema
            }
            return ["type": "function", "function": .object(function)]
        }
        var fields: [String: JSONValue] = ["tools": .array(declared)]
        if request.toolChoice == .none { fields["tool_choice"] = "none" }
        return fields
    }

    /// An assistant turn with `tool_calls` (content null when it wrote nothing), or a `role: "tool"`
    /// message answering one call by `tool_call_id`. Nil for other turns.
    static func toolMessage(_ turn: RemoteConversation.Turn) -> JSONValue? {
        if let result = turn.toolResult {
            return ["role": "tool", "tool_call_id": .string(result.callID), "content": .string(result.output)]
        }
        guard !turn.toolCalls.isEmpty else { return nil }
        let calls: [JSONValue] = turn.toolCalls.map { call in
            ["id": .string(call.id), "type": "function",
             "function": ["name": .string(call.name), "arguments": .string(call.arguments)]]
        }
        return ["role": "assistant", "content": turn.text.isEmpty ? .null : .string(turn.text), "tool_calls": .array(calls)]
    }

    /// `message.tool_calls` of a whole reply, arguments as JSON text.
    static func toolCalls(_ message: JSONValue, maxArgumentBytes: Int) throws -> [ToolCall] {
        var assembler = ToolCallAssembler(maxArgumentBytes: maxArgumentBytes)
        for (index, call) in (message["tool_calls"]?.arrayValue ?? []).enumerated() {
            try assembler.add(index: index, id: call["id"]?.stringValue, name: call["function"]?["name"]?.stringValue,
                              fragment: try argumentText(call["function"]?["arguments"]))
        }
        return try assembler.finish()
    }

    /// Arguments are JSON text; a server that sends them as an object gets them re-encoded.
    static func argumentText(_ value: JSONValue?) throws -> String {
        switch value {
        case nil, .null?: return ""
        case .string(let text)?: return text
        case let value?: return String(decoding: try value.encoded(), as: UTF8.self)
        }
    }
}

extension OpenAIStreamDecoder {
    /// `delta.tool_calls[{index, id, function: {name, arguments}}]`: the first fragment of a call
    /// names it, the rest carry pieces of its arguments.
    mutating func absorbToolCalls(_ delta: JSONValue?) throws {
        for (position, call) in (delta?["tool_calls"]?.arrayValue ?? []).enumerated() {
            try tools.add(index: call["index"]?.intValue ?? position, id: call["id"]?.stringValue,
                          name: call["function"]?["name"]?.stringValue,
                          fragment: try OpenAIWireFormat.argumentText(call["function"]?["arguments"]))
        }
    }
}
