import SwitchboardCore

/// A request as a `LanguageModelSession` takes it: instructions (the session's system text), the
/// turns before this one (the transcript), and the prompt the session answers now.
///
/// Plain values, so the rules are tested everywhere; the shell only hands them to the framework.
package struct SystemModelConversation: Sendable, Hashable {
    /// One earlier turn of the conversation.
    package enum Turn: Sendable, Hashable {
        case prompt(String)
        case response(String)
        /// The model's calls of the request's tools (their arguments as JSON text).
        case toolCalls([ToolCall])
        /// One tool's result, as the model read it, with the id of the call it answers (when known).
        case toolOutput(name: String, callID: String?, output: String, isError: Bool)
    }

    /// System messages in order, then the app's memory; nil when there is neither.
    package var instructions: String?
    package var transcript: [Turn]
    package var prompt: String

    package init(instructions: String?, transcript: [Turn], prompt: String) {
        self.instructions = instructions; self.transcript = transcript; self.prompt = prompt
    }

    /// The request's conversation, or a typed refusal that sends it to another provider.
    ///
    /// - The prompt is `request.prompt` when set (it follows the messages as a user turn), else the
    ///   last user message. When the conversation ends with tool results (the model asked, the app
    ///   answered), those results are the prompt: the framework always answers a prompt, and the
    ///   results are what the model must read next.
    /// - A partial answer to continue (`answerPrefix`) is refused: a session cannot be made to go on
    ///   from text it did not write, and another provider can.
    package init(_ request: GenerationRequest) throws(ProviderError) {
        if request.answerPrefix != nil {
            throw .invalidRequest("the system model cannot continue a partial answer")
        }
        var system: [String] = []
        var turns: [Turn] = []
        for message in request.messages {
            switch message.role {
            case .system: system.append(message.content)
            case .user: turns.append(.prompt(message.content))
            case .assistant:
                if !message.content.isEmpty { turns.append(.response(message.content)) }
                if !message.toolCalls.isEmpty { turns.append(.toolCalls(message.toolCalls)) }
            case .tool:
                turns.append(.toolOutput(name: message.toolName ?? "tool", callID: message.toolCallID, output: message.content,
                                         isError: message.isToolError))
            }
        }
        if let memory = request.memory, !memory.isEmpty { system.append(Self.render(memory)) }
        instructions = system.isEmpty ? nil : system.joined(separator: "\n\n")
        if let prompt = request.prompt {
            self.prompt = prompt
        } else if case .prompt(let last)? = turns.last {
            turns.removeLast()
            self.prompt = last
        } else if case .toolOutput? = turns.last {
            let start = (turns.lastIndex { if case .toolOutput = $0 { false } else { true } } ?? -1) + 1
            self.prompt = turns[start...].map(Self.render).joined(separator: "\n")
            turns.removeSubrange(start...)
        } else {
            throw .invalidRequest("the request has no prompt and no user message to answer")
        }
        transcript = turns
    }

    /// Instructions with the earlier turns written out after them: what the shell gives a session when
    /// the turns cannot be a framework `Transcript` (a tool call whose arguments are not JSON).
    package var instructionsWithTranscript: String? {
        guard !transcript.isEmpty else { return instructions }
        let history = "The conversation so far:\n" + transcript.map(Self.render).joined(separator: "\n")
        return [instructions, history].compactMap { $0 }.joined(separator: "\n\n")
    }

    static func render(_ turn: Turn) -> String {
        switch turn {
        case .prompt(let text): "User: \(text)"
        case .response(let text): "Assistant: \(text)"
        case .toolCalls(let calls): calls.map { "Assistant called \($0.name) with \($0.arguments)" }.joined(separator: "\n")
        case .toolOutput(let name, _, let output, let isError): "\(name) \(isError ? "failed" : "returned"): \(output)"
        }
    }

    static func render(_ memory: MemoryContext) -> String {
        var lines = ["What you know about the user:"]
        if !memory.entities.isEmpty { lines.append("- Entities: " + memory.entities.joined(separator: ", ")) }
        for item in memory.shortTerm + memory.longTerm + memory.notes { lines.append("- " + item.text) }
        return lines.joined(separator: "\n")
    }
}
