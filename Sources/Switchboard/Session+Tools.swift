import SwitchboardCore

/// The tool loop of a session with tools (`Session(tools:)`), portable to every provider that
/// produces structured output (on device by constrained decoding): each round the model first picks
/// a tool or `none` (a schema with the names as an enum), then, for a tool, writes its arguments
/// (the tool's own schema); the session validates them, runs the tool, and records the call and its
/// result in the transcript before the next round. After `none` or `maxToolRounds` rounds, the model
/// answers in plain text with every call and result in view.
extension Session {
    static let noTool = "none"

    func respondUsingTools(to prompt: String) async throws -> GenerationResponse {
        transcript.append(.prompt(prompt))
        for _ in 0..<maxToolRounds {
            let choice = try await structured(ask: "Which tool should be called next? Answer \(Self.noTool) when none is needed.",
                                              schema: .object([.init("tool", .string(enum: tools.map(\.name) + [Self.noTool]))]))
            guard case .string(let name)? = choice["tool"], let tool = tools.first(where: { $0.name == name }) else { break }
            let arguments = try await structured(ask: "Write the arguments for the tool \(tool.name).", schema: tool.arguments)
            let output: String
            do { output = try await tool.call(arguments) } catch { output = "error: \(error)" }
            transcript.append(.toolCall(name: tool.name, arguments: arguments.jsonText))
            transcript.append(.toolResult(name: tool.name, output: output))
        }
        let used = transcript.last.map { if case .toolResult = $0 { true } else { false } } ?? false
        let response = try await coordinator.respond(to: try request(for: used ? "Now answer my question in one sentence, using what the tools returned." : nil))
        transcript.append(.response(response.text, provider: response.providerID))
        note(response)
        return response
    }

    /// One structured step of the loop: the conversation so far plus `ask`, answered as `schema`.
    private func structured(ask: String, schema: GenerationSchema) async throws -> GeneratedContent {
        var request = try request(for: ask)
        request.output = .schema(schema)
        request.maxTokens = max(request.maxTokens, 64)
        let response = try await coordinator.respond(to: request)
        note(response)
        return try schema.parseValid(response.text)
    }

    /// The tools as the instructions describe them to the model.
    var toolInstructions: String {
        "You can use these tools:\n" + tools.map { "- \($0.name): \($0.description) Arguments: \($0.arguments.jsonSchemaText)" }.joined(separator: "\n")
    }
}
