/// A provider's stable name, e.g. `local-gemma-3-270m`, `openai-compatible`.
public struct ProviderID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (a: ProviderID, b: ProviderID) -> Bool { a.rawValue < b.rawValue }
}

/// Price in US dollars per million tokens.
public struct TokenPricing: Sendable, Hashable, Codable {
    public var inputPerMillion: Double
    public var outputPerMillion: Double
    public init(inputPerMillion: Double, outputPerMillion: Double) {
        self.inputPerMillion = inputPerMillion; self.outputPerMillion = outputPerMillion
    }
    public func cost(of usage: TokenUsage) -> Double {
        (Double(usage.promptTokens) * inputPerMillion + Double(usage.completionTokens) * outputPerMillion) / 1_000_000
    }
    public static let free = TokenPricing(inputPerMillion: 0, outputPerMillion: 0)
}

/// What a provider can do. Routing filters on these before it scores anything.
public struct ProviderCapabilities: Sendable, Hashable {
    /// Where the provider runs; the privacy policy decides per place (`PrivacyPolicy.mayDispatch(_:to:)`).
    public var locality: ProviderLocality
    /// Runs on this device: the only kind that may see sensitive requests. Setting it to false moves an
    /// on-device provider to a third-party cloud (set `locality` for Private Cloud Compute).
    public var isOnDevice: Bool {
        get { locality == .device }
        set { if newValue { locality = .device } else if locality == .device { locality = .thirdPartyCloud } }
    }
    /// Prompt plus output tokens the provider accepts.
    public var maxContextTokens: Int
    public var supportsImages: Bool
    public var supportsStructuredOutput: Bool
    /// Sends `GenerationRequest.tools` in its API's native form and reports calls as
    /// `ProviderEvent.toolCall`. Providers without it ignore the tools (sessions then use their
    /// portable loop).
    public var supportsToolCalling: Bool
    /// An instruction-tuned (chat) model. Base models continue text: routing prefers them for
    /// completion requests and the others for chat.
    public var followsInstructions: Bool
    /// Requests the provider serves at once (a local engine's batch size); nil: no preference, the
    /// runtime's default applies.
    public var maxConcurrency: Int?
    public var pricing: TokenPricing
    /// A prior for latency before metrics exist: time to first token and tokens per second.
    public var expectedTimeToFirstToken: Duration
    public var expectedTokensPerSecond: Double

    public init(isOnDevice: Bool, maxContextTokens: Int, supportsImages: Bool = false,
                supportsStructuredOutput: Bool = false, followsInstructions: Bool = true, maxConcurrency: Int? = nil,
                pricing: TokenPricing = .free, supportsToolCalling: Bool = false,
                expectedTimeToFirstToken: Duration = .milliseconds(200), expectedTokensPerSecond: Double = 50,
                locality: ProviderLocality? = nil) {
        // `locality`, when given, says more than `isOnDevice` (Private Cloud Compute is not on the device).
        self.locality = locality ?? (isOnDevice ? .device : .thirdPartyCloud); self.maxContextTokens = maxContextTokens
        self.supportsImages = supportsImages; self.supportsStructuredOutput = supportsStructuredOutput
        self.supportsToolCalling = supportsToolCalling
        self.followsInstructions = followsInstructions
        self.maxConcurrency = maxConcurrency.map { max(1, $0) }
        self.pricing = pricing; self.expectedTimeToFirstToken = expectedTimeToFirstToken
        self.expectedTokensPerSecond = expectedTokensPerSecond
    }
}

/// Whether a provider can take work now.
public enum ProviderAvailability: Sendable, Hashable {
    case ready
    /// Will load on first use (a local model not in memory yet): still eligible.
    case notLoaded
    /// Loading; `progress` in 0...1. Eligible: requests wait for the load.
    case loading(progress: Double)
    case unavailable(reason: String)

    public var canServe: Bool { if case .unavailable = self { false } else { true } }
}

/// One attempt handed to a provider: the request, what analysis found, and how long is left.
public struct ProviderRequest: Sendable {
    public var request: GenerationRequest
    public var analysis: RequestAnalysis
    /// 1 for the first call, counting retries and fallbacks.
    public var attempt: Int
    /// What remains of the latency budget, if the request has one.
    public var timeout: Duration?
    public init(request: GenerationRequest, analysis: RequestAnalysis, attempt: Int = 1, timeout: Duration? = nil) {
        self.request = request; self.analysis = analysis; self.attempt = attempt; self.timeout = timeout
    }
}

/// What a provider's stream yields: text pieces and tool calls, then one `finished`. A stream that
/// ends without `finished` is a truncated response, and the runtime treats it as an error.
public enum ProviderEvent: Sendable, Hashable {
    case token(String)
    /// One complete call of a request's tool (arguments assembled from any streamed fragments).
    case toolCall(ToolCall)
    case finished(FinishReason, TokenUsage?)
}

/// A source of generated text: the on-device model, a system model, a remote API. The runtime reaches
/// it only through these calls. `Sendable`, not `Actor`: a provider that holds mutable state (a loaded
/// model, its slots) is an actor; a stateless one (a remote API, whose ledger and keys are actors of
/// their own) is a plain struct and costs no hop.
public protocol Provider: Sendable {
    var id: ProviderID { get }
    var capabilities: ProviderCapabilities { get }
    func availability() async -> ProviderAvailability
    /// Starts one generation. Errors thrown through the stream should be `ProviderError`s (others are
    /// treated as transport failures). Ending the consumer's iteration or cancelling its task must stop
    /// the work promptly.
    func generate(_ request: ProviderRequest) async -> ProviderEventStream
    /// Removes this provider's secrets from the messages the runtime records (default: none).
    var secretRedactor: (any SecretRedacting)? { get }
}
