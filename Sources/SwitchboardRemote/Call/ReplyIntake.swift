import SwitchboardCore

/// What one call has taken in of its reply so far: the output budget, the structured reply held for
/// validation, and whether any visible text came. Decides at the end whether the reply was empty.
struct ReplyIntake: Sendable {
    var budget: OutputBudget
    var check: StructuredReplyCheck
    /// Some piece had visible text.
    var visible = false
    /// The request offered tools the model may call (otherwise calls are dropped, and their bytes are
    /// not progress).
    let toolsRequested: Bool
    /// A resumed answer: its continuation may rightly be empty (the prefix was already whole).
    let resumed: Bool

    init(_ request: GenerationRequest, check: StructuredReplyCheck) {
        budget = OutputBudget(maxTokens: request.maxTokens)
        self.check = check
        toolsRequested = !request.tools.isEmpty && request.toolChoice != .none
        resumed = !(request.answerPrefix ?? "").isEmpty
    }

    /// A reply with no visible text and no call (only `[DONE]`, only whitespace, only a call of a
    /// tool nobody offered) answers nothing: a retryable `malformedResponse`, so the router retries or
    /// falls back instead of handing the caller an empty answer. Nil when the reply said something.
    func emptiness(calls: [ToolCall]) -> ProviderError? {
        guard !visible, calls.isEmpty, !resumed else { return nil }
        return .malformedResponse("the reply was empty (no visible text and no tool call)")
    }
}
