import Foundation

/// How urgent a request is. Waiters for a provider slot are served by priority, then by arrival.
public enum Priority: Int, Sendable, Hashable, Comparable, Codable, CaseIterable {
    case low = 0, normal = 1, high = 2
    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
}

/// One turn of a conversation.
public struct ChatMessage: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Hashable, Codable { case system, user, assistant }
    public var role: Role
    public var content: String
    public init(_ role: Role, _ content: String) { self.role = role; self.content = content }
}

/// An image sent with a request (providers that cannot take images are not eligible).
public struct ImageAttachment: Sendable, Hashable {
    public var data: Data
    public var mimeType: String
    public init(data: Data, mimeType: String) { self.data = data; self.mimeType = mimeType }
}

/// What the caller wants back.
public enum OutputFormat: Sendable, Hashable {
    case text
    /// JSON matching this JSON Schema (the schema as JSON text).
    case jsonSchema(String)
    public var isStructured: Bool { if case .jsonSchema = self { true } else { false } }
}

/// Sampling knobs. Defaults are greedy decoding; providers map what they support.
public struct SamplingOptions: Sendable, Hashable {
    public var temperature: Double
    public var topK: Int?
    public var topP: Double?
    public var minP: Double?
    public var repetitionPenalty: Double?
    public var seed: UInt64?
    public var stopSequences: [String]
    public init(temperature: Double = 0, topK: Int? = nil, topP: Double? = nil, minP: Double? = nil,
                repetitionPenalty: Double? = nil, seed: UInt64? = nil, stopSequences: [String] = []) {
        self.temperature = temperature; self.topK = topK; self.topP = topP; self.minP = minP
        self.repetitionPenalty = repetitionPenalty; self.seed = seed; self.stopSequences = stopSequences
    }
    public static let greedy = SamplingOptions()
}

/// What the caller expects of the prompt: an answer (chat) or a continuation of its text.
public enum PromptKind: String, Sendable, Hashable, Codable {
    /// The prompt and messages are a conversation to answer: instruction-tuned models fit best.
    case chat
    /// The prompt is text to continue: base models fit best.
    case completion
}

/// An app's request: what to generate and the constraints that shape its routing.
public struct GenerationRequest: Sendable, Hashable {
    /// The caller's text: a question or instruction (`kind` chat), or text to continue (`kind`
    /// completion); may be combined with `messages` (it then follows them as a user turn).
    public var prompt: String?
    public var kind: PromptKind
    public var messages: [ChatMessage]
    public var memory: MemoryContext?
    public var images: [ImageAttachment]
    public var output: OutputFormat
    public var priority: Priority
    /// Wall time the caller accepts from submission to the last token, over all attempts.
    public var latencyBudget: Duration?
    public var maxTokens: Int
    public var sampling: SamplingOptions
    /// Tried first, in this order, when eligible.
    public var preferredProviders: [ProviderID]
    /// Never used for this request.
    public var excludedProviders: Set<ProviderID>
    /// The least private this request may be treated as, whatever the analyzer finds: a session that
    /// has seen personal or sensitive content sets it, so every later turn stays on device.
    public var privacyFloor: PrivacyLevel?
    /// The start of the answer, already delivered to the caller by a provider that then failed: the
    /// provider continues this text (as an assistant prefix, or a continuation prompt) and yields only
    /// what follows it. Set by the runtime when it resumes a request; nil otherwise.
    public var answerPrefix: String?
    /// Hedge this request (start a second provider when the first is slow to its first token): true or
    /// false overrides `HedgingPolicy.enabled`; nil follows it.
    public var hedge: Bool?

    public init(prompt: String? = nil, kind: PromptKind = .chat, messages: [ChatMessage] = [], memory: MemoryContext? = nil,
                images: [ImageAttachment] = [], output: OutputFormat = .text, priority: Priority = .normal,
                latencyBudget: Duration? = nil, maxTokens: Int = 256, sampling: SamplingOptions = .greedy,
                preferredProviders: [ProviderID] = [], excludedProviders: Set<ProviderID> = []) {
        self.prompt = prompt; self.kind = kind; self.messages = messages; self.memory = memory; self.images = images
        self.output = output; self.priority = priority; self.latencyBudget = latencyBudget
        self.maxTokens = maxTokens; self.sampling = sampling
        self.preferredProviders = preferredProviders; self.excludedProviders = excludedProviders
    }

    /// Every piece of caller text, for analysis: prompt, messages and memory.
    public var allText: [String] {
        var texts = messages.map(\.content)
        if let prompt { texts.append(prompt) }
        if let memory { texts += memory.allText }
        return texts
    }
}
