import Synchronization
import Switchboard

/// One call of `SwitchboardLanguageModel`'s executor (OS 27) as plain values: the session's transcript
/// read into turns, the tools it enabled, its schema and options. The shell reads the framework's
/// request into this; turning it into a `GenerationRequest` for the `Coordinator` is decided and tested
/// here. The inverse of `SystemModelConversation`: there a request becomes a session, here a session's
/// transcript becomes a request.
package struct ExecutorRequest: Sendable, Hashable {
    package var instructions: String?
    /// Every entry after the instructions, the newest prompt included (the session has appended it).
    package var turns: [SystemModelConversation.Turn]
    /// The enabled tools: name, description, parameters as JSON Schema text.
    package var tools: [Tool]
    /// The session's `GenerationSchema` as JSON Schema text, for structured output.
    package var schemaJSON: String?
    package var temperature: Double?
    package var maximumResponseTokens: Int?

    package struct Tool: Sendable, Hashable {
        package var name: String, description: String, parametersJSON: String
        package init(name: String, description: String, parametersJSON: String) {
            self.name = name; self.description = description; self.parametersJSON = parametersJSON
        }
    }

    package init(instructions: String?, turns: [SystemModelConversation.Turn], tools: [Tool] = [],
                 schemaJSON: String? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.instructions = instructions; self.turns = turns; self.tools = tools; self.schemaJSON = schemaJSON
        self.temperature = temperature; self.maximumResponseTokens = maximumResponseTokens
    }

    /// Responses are capped here when the session sets no maximum (the framework's own default is the
    /// model's; the coordinator needs a number to route by context size).
    package static let defaultMaximumResponseTokens = 1024

    /// The request the coordinator routes: the conversation as messages (so an engine that keeps its
    /// KV for a growing conversation finds the earlier turns as a prefix), the tools, the schema.
    /// A transcript with no prompt to answer, or a tool whose parameters Switchboard's schema cannot
    /// read, is refused with `invalidRequest`.
    package func generationRequest() throws(SwitchboardError) -> GenerationRequest {
        var messages: [ChatMessage] = instructions.map { [ChatMessage(.system, $0)] } ?? []
        for turn in turns {
            switch turn {
            case .prompt(let text): messages.append(ChatMessage(.user, text))
            case .response(let text): messages.append(ChatMessage(.assistant, text))
            case .toolCalls(let calls): messages.append(.assistant(toolCalls: calls))
            case .toolOutput(let name, let callID, let output, let isError):
                messages.append(.tool(ToolResult(callID: callID ?? "", name: name, output: output, isError: isError)))
            }
        }
        guard let last = messages.last, last.role == .user || last.role == .tool else {
            throw .invalidRequest("the session's transcript ends without a prompt or a tool result to answer")
        }
        var request = GenerationRequest(messages: messages, output: schemaJSON.map { .jsonSchema($0) } ?? .text,
                                        maxTokens: max(1, maximumResponseTokens ?? Self.defaultMaximumResponseTokens))
        for tool in tools {
            do {
                request.tools.append(ToolDefinition(name: tool.name, description: tool.description,
                                                    parameters: try GenerationSchema(jsonSchema: tool.parametersJSON)))
            } catch {
                throw .invalidRequest("the tool \(tool.name)'s parameters: \(error.description)")
            }
        }
        if let temperature, temperature.isFinite { request.sampling.temperature = min(max(temperature, 0), 2) }
        return request
    }
}

/// What the executor sends back to the session, read from the coordinator's events: text as it comes,
/// tool calls, and the usage once the answer is complete. Routing events (chosen provider, fallbacks)
/// are the coordinator's business and are not sent.
package enum ExecutorOutput: Sendable, Hashable {
    case text(String)
    case toolCall(ToolCall)
    case usage(TokenUsage)

    /// The outputs of one event; a failure is thrown as the coordinator's typed error.
    package static func outputs(of event: SwitchboardEvent) throws(SwitchboardError) -> [ExecutorOutput] {
        switch event {
        case .token(let text): return text.isEmpty ? [] : [.text(text)]
        case .toolCall(let call): return [.toolCall(call)]
        case .completed(let response): return [.usage(response.usage)]
        case .failed(let error): throw error
        default: return []
        }
    }
}

/// The framework makes an executor from a `Hashable` configuration, so the coordinator (an actor) cannot
/// travel in it: the model registers its coordinator here under an id and the configuration carries the
/// id. Entries live as long as the process; a model made for a coordinator reuses its id.
package final class CoordinatorRegistry: Sendable {
    package static let shared = CoordinatorRegistry()
    private let entries = Mutex<[ObjectIdentifier: Coordinator]>([:])

    package func register(_ coordinator: Coordinator) -> ObjectIdentifier {
        let id = ObjectIdentifier(coordinator)
        entries.withLock { $0[id] = coordinator }
        return id
    }

    package func coordinator(for id: ObjectIdentifier) -> Coordinator? { entries.withLock { $0[id] } }
}
