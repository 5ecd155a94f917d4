/// Tokens in and out of one generation, as the provider counted them.
public struct TokenUsage: Sendable, Hashable, Codable {
    public var promptTokens: Int
    public var completionTokens: Int
    public var totalTokens: Int { promptTokens + completionTokens }
    public init(promptTokens: Int = 0, completionTokens: Int = 0) {
        self.promptTokens = promptTokens; self.completionTokens = completionTokens
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

/// The finished answer to a request.
public struct GenerationResponse: Sendable, Hashable {
    public var text: String
    public var providerID: ProviderID
    /// The first provider tried, when another one produced the answer.
    public var fallbackFrom: ProviderID?
    public var fallbackUsed: Bool { fallbackFrom != nil }
    /// Provider calls made, including the successful one (0 for a cache hit).
    public var attempts: Int
    public var usage: TokenUsage
    public var timings: ResponseTimings
    public var cached: Bool
    public var privacy: PrivacyLevel
    public var finishReason: FinishReason

    public init(text: String, providerID: ProviderID, fallbackFrom: ProviderID? = nil, attempts: Int = 1,
                usage: TokenUsage = TokenUsage(), timings: ResponseTimings = ResponseTimings(), cached: Bool = false,
                privacy: PrivacyLevel = .public, finishReason: FinishReason = .stop) {
        self.text = text; self.providerID = providerID; self.fallbackFrom = fallbackFrom; self.attempts = attempts
        self.usage = usage; self.timings = timings; self.cached = cached; self.privacy = privacy
        self.finishReason = finishReason
    }
}

/// Why generation ended.
public enum FinishReason: String, Sendable, Hashable, Codable {
    /// End-of-sequence token or a stop sequence.
    case stop
    /// `maxTokens` reached.
    case length
}
