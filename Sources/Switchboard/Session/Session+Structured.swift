import SwitchboardCore

extension Session {
    /// Sends `prompt` with the conversation so far and answers with a value of `type` (its schema
    /// constrains the answer: on device by constrained decoding); appends the prompt and the JSON
    /// answer to the transcript. The session's tools are not offered for a typed answer.
    public func respond<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self,
                                            options: GenerationOptions = GenerationOptions()) async throws -> Response<Content> {
        let request = Coordinator.structured(try request(for: prompt, options: options), Content.self)
        let response: GenerationResponse
        do { response = try await coordinator.generate(request) } catch { throw StructuredResponseError.switchboard(error) }
        let answer = try Response<Content>.decoding(response)
        record(prompt: prompt, response: response)
        return answer
    }

    /// `respond(to:generating:)`, streamed: snapshots of the value as far as it is written; a valid
    /// answer is recorded in the transcript when it completes.
    public func streamResponse<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self,
                                                   options: GenerationOptions = GenerationOptions()) -> ResponseStream<Content> {
        do {
            let request = Coordinator.structured(try request(for: prompt, options: options), Content.self)
            let events = recording(prompt, coordinator.stream(request), maxTokens: request.maxTokens) { response in
                (try? Content.generationSchema.parseValid(response.text)) != nil
            }
            return ResponseStream(typed: events)
        } catch {
            return ResponseStream(failing: error)
        }
    }
}
