import SwitchboardCore

/// Native tool calls: running the calls a response carries, the transcript as native messages,
/// and the event stream of a turn with tools.
extension Session {
    /// Runs every call of `response`, in order, recording each call and result. Arguments are
    /// validated against the tool's schema first: refused ones become an error result and the tool
    /// does not run; a tool that throws becomes an error result too.
    func run(_ response: GenerationResponse, events: EventSink?) async throws {
        if !response.text.isEmpty { transcript.append(.response(response.text, provider: response.providerID)) }
        for call in response.toolCalls { transcript.append(.toolCall(name: call.name, arguments: call.arguments, id: call.id)) }
        for call in response.toolCalls {
            let result: ToolResult
            if let tool = tools.first(where: { $0.name == call.name }) {
                do {
                    let arguments = try tool.parameters.parseValid(call.arguments)
                    result = await Self.invoke(tool, arguments, call: call)
                } catch {
                    result = Self.failure(call, .invalidArguments(tool: call.name, reason: error.description))
                }
            } else {
                result = Self.failure(call, .unknownTool(call.name))
            }
            transcript.append(.toolResult(name: call.name, output: result.output, id: call.id, isError: result.isError))
            events?.yield(.toolResult(result))
        }
        try Task.checkCancellation()
    }

    /// Calls `tool` on validated arguments; arguments its type does not decode, and what it throws,
    /// become the result the model reads.
    static func invoke(_ tool: any Tool, _ arguments: GeneratedContent, call: ToolCall) async -> ToolResult {
        do {
            return ToolResult(callID: call.id, name: call.name, output: try await tool.call(validated: arguments))
        } catch let error as ToolCallError {
            return failure(call, error)
        } catch {
            return failure(call, .failed(tool: call.name, message: "\(error)"))
        }
    }

    static func failure(_ call: ToolCall, _ error: ToolCallError) -> ToolResult {
        ToolResult(callID: call.id, name: call.name, output: error.description, isError: true)
    }

    /// One request of the loop: streamed when the turn is (every event but the terminal one goes
    /// on), otherwise answered whole.
    func send(_ request: GenerationRequest, events: EventSink?) async throws -> GenerationResponse {
        guard let events else { return try await coordinator.generate(request) }
        for await event in coordinator.stream(request) {
            switch event {
            case .completed(let response): return response
            case .failed(let error): throw error
            default: events.yield(event)
            }
        }
        throw SwitchboardError.cancelled
    }

    /// `streamResponse` of a session with tools: the loop's events, then one terminal event.
    func streamUsingTools(_ prompt: String, options: GenerationOptions, maxTokens: Int) -> SwitchboardEventStream {
        // Each round streams at most its tokens plus a few events, and one call and result per call.
        let perRound = Swift.max(1, maxTokens).saturatingAdd(16).saturatingAdd(2 * 256)
        let bound = perRound.saturatingMultiply(maxToolRounds.saturatingAdd(1))
        return SwitchboardEventStream(bufferingPolicy: .bufferingOldest(bound)) { continuation in
            let sink = EventSink(continuation: continuation)
            do {
                sink.yield(.completed(try await self.respondUsingTools(to: prompt, options: options, events: sink)))
            } catch let error as SwitchboardError {
                sink.yield(.failed(error))
            } catch {
                sink.yield(.failed(Task.isCancelled ? .cancelled : .invalidRequest("\(error)")))
            }
        }
    }

    /// The transcript as native messages: consecutive calls (after any text the model wrote with
    /// them) form one assistant turn, each result a `.tool` message answering its call by id. Calls
    /// of the portable loop, which have no provider id, get one from their place in the transcript.
    static func nativeMessages(_ transcript: [Entry]) -> [ChatMessage] {
        var messages: [ChatMessage] = []
        var unanswered: [ToolCall] = []
        for (index, entry) in transcript.enumerated() {
            switch entry {
            case .instructions(let text): messages.append(ChatMessage(.system, text))
            case .prompt(let text): messages.append(ChatMessage(.user, text))
            case .response(let text, _): messages.append(ChatMessage(.assistant, text))
            case .toolCall(let name, let arguments, let id):
                let call = ToolCall(id: id ?? "call_\(index)", name: name, arguments: arguments)
                unanswered.append(call)
                if let last = messages.indices.last, messages[last].role == .assistant,
                   index > 0, Self.isCallOrResponse(transcript[index - 1]) {
                    messages[last].toolCalls.append(call)
                } else {
                    messages.append(.assistant(toolCalls: [call]))
                }
            case .toolResult(let name, let output, let id, let isError):
                let position = unanswered.firstIndex { id == nil ? $0.name == name : $0.id == id }
                let callID = position.map { unanswered.remove(at: $0).id } ?? id ?? "call_\(index)"
                messages.append(.tool(ToolResult(callID: callID, name: name, output: output, isError: isError)))
            }
        }
        return messages
    }

    private static func isCallOrResponse(_ entry: Entry) -> Bool {
        switch entry {
        case .toolCall, .response: true
        default: false
        }
    }
}
