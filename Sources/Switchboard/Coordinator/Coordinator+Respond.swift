import SwitchboardCore

/// The calls an app makes, named as FoundationModels' `LanguageModelSession` names them. Each
/// request is analyzed and routed on its own (no conversation: that is a `Session`); a prompt is
/// one user message, and `GenerationRequest` gives full control (messages, images, privacy floor,
/// latency budget, preferred providers, tools).
extension Coordinator {
    /// Answers `prompt` with text once generation has finished.
    public nonisolated func respond(to prompt: String, options: GenerationOptions = GenerationOptions())
        async throws(SwitchboardError) -> Response<String> {
        try await respond(to: options.request(for: prompt))
    }

    /// Answers `request` with text once generation has finished.
    public nonisolated func respond(to request: GenerationRequest) async throws(SwitchboardError) -> Response<String> {
        Response(try await generate(request))
    }

    /// Answers `prompt` with a value of `type`: the request asks for JSON following the type's schema
    /// (a sensitive request is served on device, by constrained decoding), and the answer is
    /// validated and decoded.
    public nonisolated func respond<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self,
                                                        options: GenerationOptions = GenerationOptions())
        async throws(StructuredResponseError) -> Response<Content> {
        try await respond(to: options.request(for: prompt), generating: type)
    }

    /// Answers `request` with a value of `type` (its `output` is replaced by the type's schema).
    public nonisolated func respond<Content: Generable>(to request: GenerationRequest, generating type: Content.Type = Content.self)
        async throws(StructuredResponseError) -> Response<Content> {
        let response: GenerationResponse
        do { response = try await generate(Self.structured(request, Content.self)) } catch { throw .switchboard(error) }
        return try Response.decoding(response)
    }

    /// Streams the answer to `prompt`: snapshots of the text so far, routing on `events`.
    public nonisolated func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions())
        -> ResponseStream<String> {
        streamResponse(to: options.request(for: prompt))
    }

    /// Streams the answer to `request`.
    public nonisolated func streamResponse(to request: GenerationRequest) -> ResponseStream<String> {
        ResponseStream(text: stream(request))
    }

    /// Streams a typed answer to `prompt`: snapshots of the value as far as it is written; the
    /// finished answer is validated and decoded (an invalid one ends the stream with
    /// `StructuredResponseError.invalidOutput`).
    public nonisolated func streamResponse<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self,
                                                               options: GenerationOptions = GenerationOptions())
        -> ResponseStream<Content> {
        streamResponse(to: options.request(for: prompt), generating: type)
    }

    /// Streams a typed answer to `request` (its `output` is replaced by the type's schema).
    public nonisolated func streamResponse<Content: Generable>(to request: GenerationRequest, generating type: Content.Type = Content.self)
        -> ResponseStream<Content> {
        ResponseStream(typed: stream(Self.structured(request, Content.self)))
    }

    static func structured<Content: Generable>(_ request: GenerationRequest, _ type: Content.Type) -> GenerationRequest {
        var request = request
        request.output = .schema(Content.generationSchema)
        return request
    }
}
