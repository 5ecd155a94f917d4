import Foundation
import SwitchboardCore

extension GeminiWireFormat {
    /// `tools: [{functionDeclarations: [{name, description, parameters}]}]`, parameters in the same
    /// OpenAPI subset as `responseSchema` (omitted for a tool without any), and
    /// `toolConfig.functionCallingConfig.mode: "NONE"` for text only.
    static func toolFields(_ request: GenerationRequest) throws -> [String: JSONValue] {
        let tools = try RemoteConversation.tools(request)
        guard !tools.isEmpty else { return [:] }
        let declarations: [JSONValue] = try tools.map { tool in
            var declaration: [String: JSONValue] = ["name": .string(tool.name), "description": .string(tool.description)]
            if case .object(let properties) = tool.parameters.kind, !properties.isEmpty {
                declaration["parameters"] = try responseSchema(tool.parameters, path: "#(\(tool.name))")
            }
            return .object(declaration)
        }
        var fields: [String: JSONValue] = ["tools": [["functionDeclarations": .array(declarations)]]]
        if request.toolChoice == .none { fields["toolConfig"] = ["functionCallingConfig": ["mode": "NONE"]] }
        return fields
    }

    /// One `contents` entry: text and images, the model's `functionCall` parts, or (a group of
    /// `.tool` turns) `functionResponse` parts in one user turn, each result under `output` or `error`.
    static func content(_ group: [RemoteConversation.Turn]) throws -> JSONValue {
        guard let turn = group.first else { return ["role": "user", "parts": []] }
        if turn.role == .tool {
            let parts: [JSONValue] = group.compactMap(\.toolResult).map { result in
                ["functionResponse": ["name": .string(result.name),
                                      "response": [result.isError ? "error" : "output": .string(result.output)]]]
            }
            return ["role": "user", "parts": .array(parts)]
        }
        var parts: [JSONValue] = turn.text.isEmpty ? [] : [["text": .string(turn.text)]]
        parts += turn.images.map { ["inlineData": ["mimeType": .string($0.mimeType), "data": .base64($0)]] }
        for call in turn.toolCalls {
            guard let args = try? JSONValue.decode(Data(call.arguments.utf8)), args.objectValue != nil else {
                throw ProviderError.invalidRequest("the arguments of tool call \(call.id) are not a JSON object")
            }
            parts.append(["functionCall": ["name": .string(call.name), "args": args]])
        }
        return ["role": turn.role == .assistant ? "model" : "user", "parts": .array(parts)]
    }
}

extension GeminiStreamDecoder {
    /// `functionCall` parts arrive whole (`name`, `args`, sometimes an `id`).
    mutating func absorbCalls(_ parts: [JSONValue]) throws {
        for part in parts {
            guard let call = part["functionCall"] else { continue }
            try tools.add(id: call["id"]?.stringValue, name: call["name"]?.stringValue, arguments: call["args"])
        }
    }
}
