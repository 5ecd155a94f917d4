import SwitchboardCore

extension RemoteConversation {
    /// One message as a turn; a `.tool` message must say which call it answers.
    static func turn(_ message: ChatMessage) throws -> Turn {
        guard message.role == .tool else {
            return Turn(role: message.role, text: message.content, images: [], toolCalls: message.toolCalls)
        }
        guard let id = message.toolCallID, !id.isEmpty, let name = message.toolName, !name.isEmpty else {
            throw ProviderError.invalidRequest("a .tool message needs toolCallID and toolName (use ChatMessage.tool(_:))")
        }
        return Turn(role: .tool, text: message.content, images: [],
                    toolResult: ToolResult(callID: id, name: name, output: message.content, isError: message.isToolError))
    }

    /// The request's tools, checked: names every API accepts, unique, object parameters, none
    /// named `reserved` (a name the wire format uses itself).
    static func tools(_ request: GenerationRequest, reserved: String? = nil) throws -> [ToolDefinition] {
        var seen = Set<String>()
        for tool in request.tools {
            if let problem = tool.problem { throw ProviderError.invalidRequest(problem) }
            guard seen.insert(tool.name).inserted else {
                throw ProviderError.invalidRequest("two tools are named \(tool.name); tool names must be unique")
            }
            if tool.name == reserved { throw ProviderError.invalidRequest("the tool name \(tool.name) is reserved; rename the tool") }
        }
        return request.tools
    }

    /// The turns with each run of consecutive `.tool` turns joined into one (Anthropic and Gemini
    /// take every result of a round in one user turn).
    var groupedTurns: [[Turn]] {
        var groups: [[Turn]] = []
        for turn in turns {
            if turn.role == .tool, let last = groups.indices.last, groups[last].first?.role == .tool {
                groups[last].append(turn)
            } else {
                groups.append([turn])
            }
        }
        return groups
    }
}
