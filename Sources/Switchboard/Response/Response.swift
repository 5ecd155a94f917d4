import SwitchboardCore

/// The answer to `respond(to:)`, in the shape of FoundationModels' `Response<Content>`: the content
/// (`String` for text, or the `Generable` value asked for) and the JSON it came from.
///
/// Where Switchboard differs: an answer may come from any of several providers, so the response
/// also says which one produced it, at what privacy level the request was analyzed, what it cost in
/// tokens, and how routing got there (fallbacks, attempts, resumes, the cache).
public struct Response<Content: Generable>: Sendable {
    public var content: Content
    /// The content as a JSON value: for text, `.string(content)`.
    public var rawContent: GeneratedContent
    /// The provider that produced the answer.
    public var providerID: ProviderID
    /// The request's privacy level (the session's, for a session turn): `.personal` and
    /// `.sensitive` answers were produced on device.
    public var privacy: PrivacyLevel
    public var usage: TokenUsage
    /// The first provider tried, when another one produced the answer.
    public var fallbackFrom: ProviderID?
    public var fallbackUsed: Bool { fallbackFrom != nil }
    /// Provider calls made, including the one that answered (0 for a cache hit).
    public var attempts: Int
    /// Served from the cache (exact or semantic); no provider ran.
    public var cached: Bool
    public var timings: ResponseTimings
    public var finishReason: FinishReason
    /// Times the answer was continued on another provider after a failure mid-stream.
    public var resumes: Int
    /// Hedge calls started (a second provider beside a slow first one).
    public var hedges: Int
    /// Calls of the request's own tools (`GenerationRequest.tools`) the model asked for; a session
    /// runs its tools itself and records them in its transcript instead.
    public var toolCalls: [ToolCall]

    package init(_ response: GenerationResponse, content: Content, rawContent: GeneratedContent) {
        self.content = content
        self.rawContent = rawContent
        providerID = response.providerID
        privacy = response.privacy
        usage = response.usage
        fallbackFrom = response.fallbackFrom
        attempts = response.attempts
        cached = response.cached
        timings = response.timings
        finishReason = response.finishReason
        resumes = response.resumes
        hedges = response.hedges
        toolCalls = response.toolCalls
    }
}

extension Response where Content == String {
    /// A text answer.
    package init(_ response: GenerationResponse) {
        self.init(response, content: response.text, rawContent: .string(response.text))
    }
}

extension Response {
    /// A typed answer: the text validated against the type's schema and decoded.
    package static func decoding(_ response: GenerationResponse) throws(StructuredResponseError) -> Response {
        do {
            let raw = try Content.generationSchema.parseValid(response.text)
            return Response(response, content: try Content.decode(raw), rawContent: raw)
        } catch {
            throw .invalidOutput(error, text: response.text)
        }
    }
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
