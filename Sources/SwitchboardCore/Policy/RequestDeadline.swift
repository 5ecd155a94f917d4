/// The whole-request deadline of a request that sets no latency budget: a fixed allowance (connecting,
/// loading a model, reading the prompt) plus a floor on the answer's pace for each token it may have,
/// capped. A provider that keeps a call alive with a token now and then ends at this deadline, not
/// after minutes. A value, so the rule is tested without a clock.
public struct RequestDeadline: Sendable, Hashable {
    /// Time allowed whatever the answer's length.
    public var base: Duration
    /// Time allowed per token of `maxTokens` (0.1 s: the answer may come at 10 tokens/s or faster).
    public var perToken: Duration
    /// The longest deadline, however many tokens are asked for.
    public var maximum: Duration

    public init(base: Duration = .seconds(30), perToken: Duration = .milliseconds(100), maximum: Duration = .seconds(600)) {
        self.base = max(.zero, base); self.perToken = max(.zero, perToken); self.maximum = max(.milliseconds(1), maximum)
    }

    /// The budget for a request of `maxTokens` tokens: `base + perToken × maxTokens`, at most `maximum`.
    /// `maxTokens` comes from the caller: any value (negative, `Int.max`) gives a budget in range.
    public func budget(maxTokens: Int) -> Duration {
        let tokens = Double(min(max(maxTokens, 0), 1 << 40))
        let seconds = base.seconds + perToken.seconds * tokens
        return seconds >= maximum.seconds ? maximum : max(.milliseconds(1), .seconds(seconds))
    }
}
