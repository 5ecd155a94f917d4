import SwitchboardCore

/// The tool loop of a session with tools (`Session(tools:)`). Each round goes to the provider that
/// routing would pick for it (privacy first):
///
/// - **Native** (`supportsToolCalling`, the remote APIs): the request carries the tools as
///   definitions; the model answers in text (the turn's answer) or with calls
///   (`Session+NativeTools`).
/// - **Portable** (every provider producing structured output; on device by constrained decoding):
///   the model first picks a tool or `none` (a schema with the names as an enum), then, for a tool,
///   writes its arguments (the tool's own schema).
///
/// Either way the session validates the arguments, runs the tool, and records the call and its
/// result in the transcript (and, streaming, as events) before the next round. After
/// `maxToolRounds` rounds, or `none`, the model answers in plain text with every call and result in
/// view.
extension Session {
    static let noTool = "none"

    func respondUsingTools(to prompt: String, options: GenerationOptions, events: EventSink?) async throws -> GenerationResponse {
        transcript.append(.prompt(prompt))
        var round = 0
        while round < maxToolRounds {
            var native = try request(for: nil, native: true, options: options)
            native.toolChoice = .auto
            if await coordinator.firstChoiceSupportsToolCalling(native) {
                let response = try await send(native, events: events)
                note(response)
                if response.toolCalls.isEmpty {
                    transcript.append(.response(response.text, provider: response.providerID))
                    return response
                }
                try await run(response, events: events)
            } else if try await !portableRound(options: options, events: events) {
                break
            }
            round += 1
        }
        return try await finalAnswer(options: options, events: events)
    }

    /// The turn's answer after the tool rounds: native (the tools stay defined, but no more calls)
    /// when the first choice calls tools natively, otherwise in text with the calls and results
    /// written out.
    private func finalAnswer(options: GenerationOptions, events: EventSink?) async throws -> GenerationResponse {
        var request = try request(for: nil, native: true, options: options)
        request.toolChoice = .none
        if await !coordinator.firstChoiceSupportsToolCalling(request) {
            let used = transcript.last.map { if case .toolResult = $0 { true } else { false } } ?? false
            request = try self.request(for: used ? "Now answer my question in one sentence, using what the tools returned." : nil,
                                       options: options)
        }
        let response = try await send(request, events: events)
        transcript.append(.response(response.text, provider: response.providerID))
        note(response)
        return response
    }

    /// One portable round: false when the model picked no tool.
    private func portableRound(options: GenerationOptions, events: EventSink?) async throws -> Bool {
        let choice = try await structured(ask: "Which tool should be called next? Answer \(Self.noTool) when none is needed.",
                                          schema: .object([.init("tool", .string(enum: tools.map(\.name) + [Self.noTool]))]),
                                          options: options)
        guard case .string(let name)? = choice["tool"], let tool = tools.first(where: { $0.name == name }) else { return false }
        let arguments = try await structured(ask: "Write the arguments for the tool \(tool.name).", schema: tool.parameters,
                                             options: options)
        let call = ToolCall(id: "call_\(transcript.count)", name: tool.name, arguments: arguments.jsonText)
        transcript.append(.toolCall(name: tool.name, arguments: call.arguments))
        events?.yield(.toolCall(call))
        let result = await Self.invoke(tool, arguments, call: call)
        transcript.append(.toolResult(name: tool.name, output: result.output, isError: result.isError))
        events?.yield(.toolResult(result))
        return true
    }

    /// One structured step of the portable loop: the conversation so far plus `ask`, answered as `schema`.
    private func structured(ask: String, schema: GenerationSchema, options: GenerationOptions) async throws -> GeneratedContent {
        var request = try request(for: ask, options: options)
        request.output = .schema(schema)
        request.maxTokens = max(request.maxTokens, 64)
        let response = try await coordinator.generate(request)
        note(response)
        return try schema.parseValid(response.text)
    }

    /// The tools as the instructions describe them to the model (portable loop).
    var toolInstructions: String {
        "You can use these tools:\n"
            + tools.map { "- \($0.name): \($0.description) Arguments: \($0.parameters.jsonSchemaText)" }.joined(separator: "\n")
    }
}
