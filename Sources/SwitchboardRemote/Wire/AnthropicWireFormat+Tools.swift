import Foundation
import SwitchboardCore

extension AnthropicWireFormat {
    /// `tools: [{name, description, input_schema}]`, then the choice: `{type: "none"}` for text
    /// only. A structured request adds the answer tool (`json_answer`, reserved): alone it is forced;
    /// with the caller's tools the model must call one of them or answer through it (`any`).
    static func toolFields(_ request: GenerationRequest, answerSchema: JSONValue?) throws -> [String: JSONValue] {
        let tools = try RemoteConversation.tools(request, reserved: answerToolName)
        var declared: [JSONValue] = try tools.map { tool in
            ["name": .string(tool.name), "description": .string(tool.description),
             "input_schema": try JSONValue.decode(Data(tool.parameters.jsonSchemaText.utf8))]
        }
        var choice: JSONValue? = tools.isEmpty || request.toolChoice == .auto ? nil : ["type": "none"]
        if let answerSchema {
            let (answer, forced) = try answerTool(answerSchema)
            declared += answer.arrayValue ?? []
            choice = tools.isEmpty || request.toolChoice == .none ? forced : ["type": "any"]
        }
        guard !declared.isEmpty else { return [:] }
        var fields: [String: JSONValue] = ["tools": .array(declared)]
        if let choice { fields["tool_choice"] = choice }
        return fields
    }

    /// The content blocks of a turn: text and images, or the model's `tool_use` blocks, or (for a
    /// group of `.tool` turns, sent as one user turn) `tool_result` blocks.
    static func message(_ group: [RemoteConversation.Turn]) throws -> JSONValue {
        guard let turn = group.first else { return ["role": "user", "content": []] }
        if turn.role == .tool {
            let results: [JSONValue] = group.compactMap(\.toolResult).map { result in
                var block: [String: JSONValue] = ["type": "tool_result", "tool_use_id": .string(result.callID),
                                                  "content": .string(result.output)]
                if result.isError { block["is_error"] = true }
                return .object(block)
            }
            return ["role": "user", "content": .array(results)]
        }
        var parts: [JSONValue] = turn.images.map { image in
            ["type": "image", "source": ["type": "base64", "media_type": .string(image.mimeType), "data": .base64(image)]]
        }
        if !turn.text.isEmpty { parts.append(["type": "text", "text": .string(turn.text)]) }
        for call in turn.toolCalls {
            guard let input = try? JSONValue.decode(Data(call.arguments.utf8)), input.objectValue != nil else {
                throw ProviderError.invalidRequest("the arguments of tool call \(call.id) are not a JSON object")
            }
            parts.append(["type": "tool_use", "id": .string(call.id), "name": .string(call.name), "input": input])
        }
        return ["role": .string(turn.role.rawValue), "content": .array(parts)]
    }

    /// The `content` blocks of a whole reply: the answer tool's input is the text of a structured
    /// answer; every other `tool_use` block is a call.
    static func reply(_ content: [JSONValue], maxToolArgumentBytes: Int) throws -> (text: String, calls: [ToolCall]) {
        var tools = ToolCallAssembler(maxArgumentBytes: maxToolArgumentBytes)
        var answer: String?
        var text = ""
        for block in content {
            switch block["type"]?.stringValue {
            case "text": text += block["text"]?.stringValue ?? ""
            case "tool_use" where block["name"]?.stringValue == answerToolName:
                answer = String(decoding: try (block["input"] ?? [:]).encoded(), as: UTF8.self)
            case "tool_use":
                try tools.add(id: block["id"]?.stringValue, name: block["name"]?.stringValue, arguments: block["input"])
            default: break
            }
        }
        return (answer ?? text, try tools.finish())
    }
}

extension AnthropicStreamDecoder {
    /// `content_block_start` of a `tool_use` block: the answer tool's input streams as text, a
    /// caller's tool's input is assembled into a call.
    mutating func startBlock(_ json: JSONValue) throws {
        guard let block = json["content_block"], block["type"]?.stringValue == "tool_use",
              let index = json["index"]?.intValue else { return }
        if block["name"]?.stringValue == AnthropicWireFormat.answerToolName { return }
        toolBlocks.insert(index)
        try tools.add(index: index, id: block["id"]?.stringValue, name: block["name"]?.stringValue)
    }

    /// An `input_json_delta` piece: part of a call's arguments (nil), or of the answer's text.
    mutating func inputPiece(_ json: JSONValue, _ piece: String) throws -> String? {
        guard let index = json["index"]?.intValue, toolBlocks.contains(index) else { return piece }
        try tools.add(index: index, fragment: piece)
        return nil
    }
}

extension AnthropicWireFormat {
    static let answerToolName = "json_answer"

    /// The Messages API has no response format: a structured request becomes one tool the model is
    /// forced to call, whose input schema is the requested schema. Its input is the answer.
    static func answerTool(_ schema: JSONValue) throws -> (tools: JSONValue, choice: JSONValue) {
        // Tool inputs are always objects.
        guard schema["type"]?.stringValue == "object" else {
            throw ProviderError.invalidRequest("Anthropic answers structured requests through a tool, whose input must be an object; "
                + "wrap the top-level value in an object property")
        }
        let purpose = schema["description"]?.stringValue.map { " It holds: \($0)" } ?? ""
        let tool: JSONValue = [
            "name": .string(answerToolName),
            "description": .string("Give the answer by calling this tool; its input is the whole answer." + purpose),
            "input_schema": schema,
        ]
        return ([tool], ["type": "tool", "name": .string(answerToolName)])
    }
}
