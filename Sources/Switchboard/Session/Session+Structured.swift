import SwitchboardCore

extension Session {
    /// Sends `prompt` with the conversation so far and answers with a value of `type` (its schema
    /// constrains the answer: on device by constrained decoding); appends the prompt and the JSON
    /// answer to the transcript.
    public func respond<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self)
        async throws -> StructuredResponse<Content> {
        let answer = try await coordinator.respond(to: try request(for: prompt), generating: type)
        record(prompt: prompt, response: answer.response)
        return answer
    }
}
