/// Tokens in and out of one generation, as the provider counted them.
public struct TokenUsage: Sendable, Hashable, Codable {
    public var promptTokens: Int
    public var completionTokens: Int
    /// Prompt tokens the provider did not evaluate again: an on-device engine found them in its KV
    /// cache from an earlier request (a conversation's previous turns).
    public var cachedPromptTokens: Int
    public var totalTokens: Int { promptTokens.saturatingAdd(completionTokens) }
    public init(promptTokens: Int = 0, completionTokens: Int = 0, cachedPromptTokens: Int = 0) {
        self.promptTokens = promptTokens; self.completionTokens = completionTokens; self.cachedPromptTokens = cachedPromptTokens
    }

    private enum CodingKeys: String, CodingKey { case promptTokens, completionTokens, cachedPromptTokens }

    /// Records written before `cachedPromptTokens` existed decode with 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        promptTokens = try c.decode(Int.self, forKey: .promptTokens)
        completionTokens = try c.decode(Int.self, forKey: .completionTokens)
        cachedPromptTokens = try c.decodeIfPresent(Int.self, forKey: .cachedPromptTokens) ?? 0
    }
}

/// Where the time of one request went.
public struct ResponseTimings: Sendable, Hashable {
    /// Waiting for a provider slot, summed over attempts.
    public var queueWait: Duration
    /// From submission to the first token the caller saw; nil when no token was produced.
    public var timeToFirstToken: Duration?
    /// From submission to completion.
    public var total: Duration
    public init(queueWait: Duration = .zero, timeToFirstToken: Duration? = nil, total: Duration = .zero) {
        self.queueWait = queueWait; self.timeToFirstToken = timeToFirstToken; self.total = total
    }
}

/// The finished answer to a request, as the runtime passes it around (cache, events, sessions); an
/// app gets it as a `Response`.
package struct GenerationResponse: Sendable, Hashable {
    package var text: String
    package var providerID: ProviderID
    /// The first provider tried, when another one produced the answer.
    package var fallbackFrom: ProviderID?
    package var fallbackUsed: Bool { fallbackFrom != nil }
    /// Provider calls made, including the successful one (0 for a cache hit).
    package var attempts: Int
    package var usage: TokenUsage
    package var timings: ResponseTimings
    package var cached: Bool
    package var privacy: PrivacyLevel
    package var finishReason: FinishReason
    /// Times the answer was continued on another provider after a failure mid-stream.
    package var resumes: Int
    /// Hedge calls started for this request (a second provider beside a slow first one).
    package var hedges: Int
    /// The calls of the request's tools the model made (finish reason `.toolCalls`), in order.
    package var toolCalls: [ToolCall] = []

    package init(text: String, providerID: ProviderID, fallbackFrom: ProviderID? = nil, attempts: Int = 1,
                usage: TokenUsage = TokenUsage(), timings: ResponseTimings = ResponseTimings(), cached: Bool = false,
                privacy: PrivacyLevel = .public, finishReason: FinishReason = .stop, resumes: Int = 0, hedges: Int = 0) {
        self.text = text; self.providerID = providerID; self.fallbackFrom = fallbackFrom; self.attempts = attempts
        self.usage = usage; self.timings = timings; self.cached = cached; self.privacy = privacy
        self.finishReason = finishReason; self.resumes = resumes; self.hedges = hedges
    }
}

/// Why generation ended.
public enum FinishReason: String, Sendable, Hashable, Codable {
    /// End-of-sequence token or a stop sequence.
    case stop
    /// `maxTokens` reached.
    case length
    /// The model called one or more of the request's tools and waits for their results.
    case toolCalls
}
