extension GenerationRequest {
    /// The request's fields as plain stored properties (equality and hashing are theirs).
    @usableFromInline struct Fields: Sendable, Hashable {
        @usableFromInline var prompt: String?
        @usableFromInline var kind: PromptKind
        @usableFromInline var messages: [ChatMessage]
        @usableFromInline var memory: MemoryContext?
        @usableFromInline var images: [ImageAttachment]
        @usableFromInline var output: OutputFormat
        @usableFromInline var priority: Priority
        @usableFromInline var latencyBudget: Duration?
        @usableFromInline var maxTokens: Int
        @usableFromInline var sampling: SamplingOptions
        @usableFromInline var preferredProviders: [ProviderID]
        @usableFromInline var excludedProviders: Set<ProviderID>
        @usableFromInline var privacyFloor: PrivacyLevel? = nil
        @usableFromInline var answerPrefix: String? = nil
        @usableFromInline var hedge: Bool? = nil
        @usableFromInline var tools: [ToolDefinition] = []
        @usableFromInline var toolChoice: ToolChoice = .auto
        @usableFromInline var cacheScope: String? = nil
        @usableFromInline var prefixOwner: UInt64? = nil
    }

    /// Immutable, so it is `Sendable` as it stands; a change makes a new one.
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let fields: Fields
        @usableFromInline init(_ fields: Fields) { self.fields = fields }
        static let placeholder = Storage(Fields(kind: .chat, messages: [], images: [], output: .text, priority: .normal,
                                                maxTokens: 0, sampling: .greedy, preferredProviders: [], excludedProviders: []))
    }

    /// The fields, for one change, with this request's hold on its old box already dropped: when no
    /// other copy shares that box, the arrays and strings in the fields are uniquely owned again, so
    /// `request.messages.append(m)` appends in place instead of copying the array.
    @usableFromInline mutating func takeFields() -> Fields {
        let fields = storage.fields
        storage = .placeholder
        return fields
    }

    public static func == (lhs: GenerationRequest, rhs: GenerationRequest) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }
}
