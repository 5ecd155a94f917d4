import SwitchboardCore

/// A typed answer: the decoded value, the JSON it came from and the response's routing facts.
public struct StructuredResponse<Content: Generable>: Sendable {
    public var content: Content
    public var rawContent: GeneratedContent
    public var response: GenerationResponse
}

/// One step of a streamed typed answer: the JSON so far, the value it holds (open strings and
/// containers as far as written), and the typed value once that partial JSON already decodes
/// (e.g. when every required property has started). The last snapshot has `isComplete` set.
public struct StructuredSnapshot<Content: Generable>: Sendable {
    public var text: String
    public var partial: GeneratedContent?
    public var content: Content?
    public var isComplete: Bool
}

/// Why a typed request failed: routing (as `respond(to:)`), or an answer that is not valid.
public enum StructuredResponseError: Error, Sendable, CustomStringConvertible {
    case switchboard(SwitchboardError)
    case invalidOutput(StructuredOutputError, text: String)

    public var description: String {
        switch self {
        case .switchboard(let error): "\(error)"
        case .invalidOutput(let error, _): "\(error)"
        }
    }
}

extension Coordinator {
    /// Answers `request` with a value of `type`: the request asks for JSON following the type's
    /// schema (a sensitive request is served on device by constrained decoding), and the answer is
    /// validated and decoded.
    public func respond<Content: Generable>(to request: GenerationRequest, generating type: Content.Type = Content.self)
        async throws(StructuredResponseError) -> StructuredResponse<Content> {
        let response: GenerationResponse
        do { response = try await respond(to: Self.structured(request, Content.self)) } catch { throw .switchboard(error) }
        return try Self.decode(response, Content.self)
    }

    /// Answers `prompt` (a chat prompt) with a value of `type`.
    public func respond<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self,
                                            maxTokens: Int = 256) async throws(StructuredResponseError) -> StructuredResponse<Content> {
        try await respond(to: GenerationRequest(prompt: prompt, maxTokens: maxTokens), generating: type)
    }

    /// Streams snapshots of a typed answer as tokens arrive, then one complete snapshot; routing
    /// failures and invalid answers end the stream with a `StructuredResponseError`. Ending the
    /// iteration cancels the request.
    public nonisolated func streamResponse<Content: Generable>(to request: GenerationRequest, generating type: Content.Type = Content.self)
        -> AsyncThrowingStream<StructuredSnapshot<Content>, any Error> {
        let events = stream(Self.structured(request, Content.self))
        // Every token yields at most one snapshot; the buffer keeps the newest ones if the consumer lags.
        let (output, continuation) = AsyncThrowingStream.makeStream(of: StructuredSnapshot<Content>.self,
                                                                    bufferingPolicy: .bufferingNewest(64))
        let task = Task {
            var text = ""
            for await event in events {
                switch event {
                case .token(let piece):
                    text += piece
                    let partial = GeneratedContent.partial(json: text)
                    continuation.yield(StructuredSnapshot(text: text, partial: partial,
                                                          content: partial.flatMap { try? Content.decode($0) }, isComplete: false))
                case .fallback, .resumed(_, _, _, .restarted):
                    text = ""
                case .completed(let response):
                    do {
                        let done = try Self.decode(response, Content.self)
                        continuation.yield(StructuredSnapshot(text: response.text, partial: done.rawContent,
                                                              content: done.content, isComplete: true))
                        continuation.finish()
                    } catch { continuation.finish(throwing: error) }
                case .failed(let error):
                    continuation.finish(throwing: StructuredResponseError.switchboard(error))
                default: break
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return output
    }

    static func structured<Content: Generable>(_ request: GenerationRequest, _ type: Content.Type) -> GenerationRequest {
        var request = request
        request.output = .schema(Content.generationSchema)
        return request
    }

    static func decode<Content: Generable>(_ response: GenerationResponse, _ type: Content.Type)
        throws(StructuredResponseError) -> StructuredResponse<Content> {
        do {
            let raw = try Content.generationSchema.parseValid(response.text)
            return StructuredResponse(content: try Content.decode(raw), rawContent: raw, response: response)
        } catch {
            throw .invalidOutput(error, text: response.text)
        }
    }
}
