/// A tool as a request offers it to the model: the provider sends it in its API's native form
/// (OpenAI `tools`, Anthropic `tools`, Gemini `functionDeclarations`). Names are letters, digits,
/// `_` and `-`, at most 64 (what all three APIs accept); parameters are an object schema.
public struct ToolDefinition: Sendable, Hashable {
    public var name: String
    public var description: String
    public var parameters: GenerationSchema
    public init(name: String, description: String, parameters: GenerationSchema) {
        self.name = name; self.description = description; self.parameters = parameters
    }
    /// The definition of a session's `Tool`.
    public init(_ tool: any Tool) { self.init(name: tool.name, description: tool.description, parameters: tool.parameters) }

    /// Why this definition cannot be sent, or nil when every API accepts it.
    public var problem: String? {
        let allowed = name.utf8.allSatisfy { byte in
            let letter = byte | 0x20
            return (byte >= 0x30 && byte <= 0x39) || (letter >= 0x61 && letter <= 0x7A) || byte == 0x5F || byte == 0x2D
        }
        if name.isEmpty || name.utf8.count > 64 || !allowed {
            return "the tool name \"\(name.prefix(80))\" must be 1 to 64 letters, digits, _ or -"
        }
        guard case .object = parameters.kind else { return "the tool \(name)'s parameters must be an object schema" }
        return nil
    }
}

/// Whether the model may call the request's tools.
public enum ToolChoice: String, Sendable, Hashable, Codable {
    /// The model decides: text, or one or more calls.
    case auto
    /// Text only (the tools stay defined, so a conversation with earlier calls remains valid).
    case none
}

/// One call the model asked for: the provider's id for it (echoed with the result), the tool's
/// name and its arguments as a JSON object's text, assembled whole (the provider joins streamed
/// fragments before it reports the call).
public struct ToolCall: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var arguments: String
    public init(id: String, name: String, arguments: String) { self.id = id; self.name = name; self.arguments = arguments }
}

/// What a tool call gave back to the model.
public struct ToolResult: Sendable, Hashable, Codable {
    /// The `ToolCall.id` this answers.
    public var callID: String
    public var name: String
    /// What the model reads: the tool's output, or the error's description.
    public var output: String
    /// The tool threw, or its arguments were refused before it ran.
    public var isError: Bool
    public init(callID: String, name: String, output: String, isError: Bool = false) {
        self.callID = callID; self.name = name; self.output = output; self.isError = isError
    }
}

/// Why a tool call became an error result instead of the tool's output. The description is what
/// the model reads, so it says what to change.
public enum ToolCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model named a tool the session does not have.
    case unknownTool(String)
    /// The arguments are not JSON or do not follow the tool's schema; the tool did not run.
    case invalidArguments(tool: String, reason: String)
    /// The tool ran and threw.
    case failed(tool: String, message: String)

    public var description: String {
        switch self {
        case .unknownTool(let name): "error: there is no tool named \(name)"
        case .invalidArguments(let tool, let reason): "error: the arguments for \(tool) were refused, the tool did not run: \(reason)"
        case .failed(let tool, let message): "error: \(tool) failed: \(message)"
        }
    }
}
