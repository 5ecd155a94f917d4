import Foundation

/// How urgent a request is. Waiters for a provider slot are served by priority, then by arrival.
public enum Priority: Int, Sendable, Hashable, Comparable, Codable, CaseIterable {
    case low = 0, normal = 1, high = 2
    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
}

/// One turn of a conversation. Native tool calling adds two shapes: an assistant turn carrying
/// `toolCalls` (its text may be empty), and a `.tool` turn whose content is one call's result.
public struct ChatMessage: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Hashable, Codable { case system, user, assistant, tool }
    public var role: Role
    public var content: String
    /// An assistant turn's calls, in the order the model made them.
    public var toolCalls: [ToolCall] = []
    /// A `.tool` turn: the call it answers (`ToolCall.id`) and the tool's name.
    public var toolCallID: String?
    public var toolName: String?
    /// A `.tool` turn whose content is an error (the tool threw or its arguments were refused).
    public var isToolError = false

    public init(_ role: Role, _ content: String) { self.role = role; self.content = content }

    /// The model's turn that asked for `calls` (with any text it wrote before them).
    public static func assistant(_ text: String = "", toolCalls calls: [ToolCall]) -> ChatMessage {
        var message = ChatMessage(.assistant, text)
        message.toolCalls = calls
        return message
    }

    /// The turn that hands a call's result back to the model.
    public static func tool(_ result: ToolResult) -> ChatMessage {
        var message = ChatMessage(.tool, result.output)
        message.toolCallID = result.callID; message.toolName = result.name; message.isToolError = result.isError
        return message
    }

    /// Every text of the turn the analyzer reads: its content, then its calls' arguments.
    public var analyzedTexts: [String] { toolCalls.isEmpty ? [content] : [content] + toolCalls.map(\.arguments) }

    private enum CodingKeys: String, CodingKey { case role, content, toolCalls, toolCallID, toolName, isToolError }

    /// Messages written before tool calling decode with none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        role = try c.decode(Role.self, forKey: .role)
        content = try c.decode(String.self, forKey: .content)
        toolCalls = try c.decodeIfPresent([ToolCall].self, forKey: .toolCalls) ?? []
        toolCallID = try c.decodeIfPresent(String.self, forKey: .toolCallID)
        toolName = try c.decodeIfPresent(String.self, forKey: .toolName)
        isToolError = try c.decodeIfPresent(Bool.self, forKey: .isToolError) ?? false
    }
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
///
/// A value type with its fields in one shared, immutable box (`GenerationRequest+Storage.swift`):
/// the runtime passes a request through several async frames and actors per call, and a copy is
/// one reference count instead of a dozen (about a fifth of all reference counting on the routing
/// hot path before). Setting a field makes a new box.
public struct GenerationRequest: Sendable, Hashable {
    @usableFromInline var storage: Storage

    /// The fields; a change goes through `takeFields()` and ends in a new box.
    @inlinable var fields: Fields {
        get { storage.fields }
        _modify {
            var fields = takeFields()
            defer { storage = Storage(fields) }
            yield &fields
        }
    }

    /// The caller's text: a question or instruction (`kind` chat), or text to continue (`kind`
    /// completion); may be combined with `messages` (it then follows them as a user turn).
    @inlinable public var prompt: String? {
        get { fields.prompt }
        _modify { yield &fields.prompt }
    }
    @inlinable public var kind: PromptKind {
        get { fields.kind }
        _modify { yield &fields.kind }
    }
    @inlinable public var messages: [ChatMessage] {
        get { fields.messages }
        _modify { yield &fields.messages }
    }
    @inlinable public var memory: MemoryContext? {
        get { fields.memory }
        _modify { yield &fields.memory }
    }
    @inlinable public var images: [ImageAttachment] {
        get { fields.images }
        _modify { yield &fields.images }
    }
    @inlinable public var output: OutputFormat {
        get { fields.output }
        _modify { yield &fields.output }
    }
    @inlinable public var priority: Priority {
        get { fields.priority }
        _modify { yield &fields.priority }
    }
    /// Wall time the caller accepts from submission to the last token, over all attempts.
    @inlinable public var latencyBudget: Duration? {
        get { fields.latencyBudget }
        _modify { yield &fields.latencyBudget }
    }
    @inlinable public var maxTokens: Int {
        get { fields.maxTokens }
        _modify { yield &fields.maxTokens }
    }
    @inlinable public var sampling: SamplingOptions {
        get { fields.sampling }
        _modify { yield &fields.sampling }
    }
    /// Tried first, in this order, when eligible.
    @inlinable public var preferredProviders: [ProviderID] {
        get { fields.preferredProviders }
        _modify { yield &fields.preferredProviders }
    }
    /// Never used for this request.
    @inlinable public var excludedProviders: Set<ProviderID> {
        get { fields.excludedProviders }
        _modify { yield &fields.excludedProviders }
    }
    /// The least private this request may be treated as, whatever the analyzer finds: a session that
    /// has seen personal or sensitive content sets it, so every later turn stays on device.
    @inlinable public var privacyFloor: PrivacyLevel? {
        get { fields.privacyFloor }
        _modify { yield &fields.privacyFloor }
    }
    /// The start of the answer, already delivered to the caller by a provider that then failed: the
    /// provider continues this text (as an assistant prefix, or a continuation prompt) and yields only
    /// what follows it. Set by the runtime when it resumes a request; nil otherwise.
    @inlinable public var answerPrefix: String? {
        get { fields.answerPrefix }
        _modify { yield &fields.answerPrefix }
    }
    /// Hedge this request (start a second provider when the first is slow to its first token): true or
    /// false overrides `HedgingPolicy.enabled`; nil follows it.
    @inlinable public var hedge: Bool? {
        get { fields.hedge }
        _modify { yield &fields.hedge }
    }
    /// Tools the model may call natively (providers with `supportsToolCalling`); others ignore them
    /// and answer in text. A call comes back as `ProviderEvent.toolCall`, the finish reason
    /// `.toolCalls`; the caller runs it and sends the result as a `.tool` message.
    @inlinable public var tools: [ToolDefinition] {
        get { fields.tools }
        _modify { yield &fields.tools }
    }
    @inlinable public var toolChoice: ToolChoice {
        get { fields.toolChoice }
        _modify { yield &fields.toolChoice }
    }
    /// Whose answers this request may share in the cache (a user id, a tenant): cached answers are only
    /// served to requests of the same scope. Nil is one shared scope.
    @inlinable public var cacheScope: String? {
        get { fields.cacheScope }
        _modify { yield &fields.cacheScope }
    }

    /// The session whose prompt this is (`Session` sets it): an on-device engine's prefix cache
    /// records it as an owner of the prompt's cached keys and values, and the session's reset clears
    /// what only it owns (`SessionStateHolder`). Nil: no session; such entries go only by eviction.
    @inlinable package var prefixOwner: UInt64? {
        get { fields.prefixOwner }
        _modify { yield &fields.prefixOwner }
    }

    public init(prompt: String? = nil, kind: PromptKind = .chat, messages: [ChatMessage] = [], memory: MemoryContext? = nil,
                images: [ImageAttachment] = [], output: OutputFormat = .text, priority: Priority = .normal,
                latencyBudget: Duration? = nil, maxTokens: Int = 256, sampling: SamplingOptions = .greedy,
                preferredProviders: [ProviderID] = [], excludedProviders: Set<ProviderID> = []) {
        storage = Storage(Fields(prompt: prompt, kind: kind, messages: messages, memory: memory, images: images,
                                 output: output, priority: priority, latencyBudget: latencyBudget,
                                 maxTokens: maxTokens, sampling: sampling,
                                 preferredProviders: preferredProviders, excludedProviders: excludedProviders))
    }

    /// The question being asked now: the last user message, else the prompt (semantic cache keys, memory
    /// retrieval).
    public var finalUserTurn: String? { messages.last(where: { $0.role == .user })?.content ?? prompt }

    /// Every piece of caller text, for analysis: messages (with tool results and call arguments),
    /// prompt and memory. Tool definitions are the app's own text, like an output schema: not analyzed.
    public var allText: [String] {
        var texts = messages.flatMap(\.analyzedTexts)
        if let prompt { texts.append(prompt) }
        if let memory { texts += memory.allText }
        return texts
    }
}
