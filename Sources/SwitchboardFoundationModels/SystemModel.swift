import SwitchboardCore

/// What the provider needs from Apple's system model, and nothing more: so tests drive
/// `FoundationModelsProvider` with a scripted fake, and the real implementation over
/// `LanguageModelSession` (`Shell/SystemLanguageModelBackend.swift`) stays a thin translation.
package protocol SystemModel: Sendable {
    /// Read again on every call: Apple Intelligence can be turned off, the model can finish (or lose)
    /// its download at any time.
    func availability() async -> SystemModelAvailability
    /// The context size in tokens where the OS reports it (`SystemLanguageModel.contextSize`, 26.4 and
    /// later); nil before.
    var contextSize: Int? { get }
    /// Language codes (`en`, `fr`, …) the model answers in, where the OS lists them; nil: unknown.
    var supportedLanguages: Set<String>? { get }
    /// One answer: cumulative snapshots, then any usage, then the end. Errors are `SystemModelFailure`,
    /// `ToolCallCaptured` (the model called a tool) or `CancellationError`.
    func stream(_ request: SystemModelRequest) -> AsyncThrowingStream<SystemModelEvent, any Error>
}

/// One call of the system model, already translated.
package struct SystemModelRequest: Sendable, Hashable {
    package var conversation: SystemModelConversation
    /// Set for structured output: the session is asked for `GeneratedContent` of this schema.
    package var schema: DynamicSchemaSet?
    package var tools: [SystemModelTool]
    /// `GenerationOptions.temperature`; nil leaves the framework's default.
    package var temperature: Double?
    /// `GenerationOptions.maximumResponseTokens`.
    package var maximumResponseTokens: Int?
    /// The first id number for tool calls made in this call (calls already in the conversation).
    package var firstToolCallSequence: Int

    package init(conversation: SystemModelConversation, schema: DynamicSchemaSet?, tools: [SystemModelTool],
                 temperature: Double?, maximumResponseTokens: Int?, firstToolCallSequence: Int = 0) {
        self.conversation = conversation; self.schema = schema; self.tools = tools
        self.temperature = temperature; self.maximumResponseTokens = maximumResponseTokens
        self.firstToolCallSequence = firstToolCallSequence
    }
}

/// What a system-model stream yields.
package enum SystemModelEvent: Sendable, Hashable {
    /// The whole answer so far: text, or the JSON text of the partial structured content.
    case snapshot(String)
    /// Token counts, where the OS reports them (`ResponseStream.Snapshot.usage`, OS 27).
    case usage(TokenUsage)
}
