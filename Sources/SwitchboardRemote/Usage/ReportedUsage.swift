import SwitchboardCore

/// Token counts a server reports (usage, context limits) are claims: each is clamped to
/// `0...maxTokens` before anything adds, multiplies or compares it. A count near `Int.max` used to
/// overflow the ledger's totals on the second commit, and a negative one "un-spent" a budget.
enum ReportedUsage {
    /// The largest count believed: 2^30 (about a billion) tokens, far past any context window or reply.
    static let maxTokens = 1 << 30

    /// One count from a reply: integers and integral doubles clamped to `0...maxTokens`; anything
    /// else (absent, a string, NaN) is 0.
    static func count(_ value: JSONValue?) -> Int {
        switch value {
        case .int(let int)?: return clamp(int)
        case .double(let double)? where double.isFinite: return clamp(Int(saturating: double))
        case .double(let double)? where double == .infinity: return maxTokens
        default: return 0
        }
    }

    static func clamp(_ count: Int) -> Int { min(max(count, 0), maxTokens) }

    /// Usage from counts already read (several fields may add up to one side, as Gemini's thoughts do).
    static func usage(prompt: JSONValue?, completion: [JSONValue?]) -> TokenUsage {
        TokenUsage(promptTokens: count(prompt),
                   completionTokens: clamp(completion.reduce(0) { $0.saturatingAdd(count($1)) }))
    }

    /// A usage value with every count clamped (for values built elsewhere, e.g. by a custom transport).
    static func sanitized(_ usage: TokenUsage) -> TokenUsage {
        TokenUsage(promptTokens: clamp(usage.promptTokens), completionTokens: clamp(usage.completionTokens),
                   cachedPromptTokens: clamp(usage.cachedPromptTokens))
    }
}

extension Int {
    /// `value` rounded toward zero and clamped to `Int`'s range (NaN is 0): never traps.
    init(saturating value: Double) {
        if value.isNaN { self = 0 }
        else if value >= 9.223372036854775e18 { self = .max }
        else if value <= -9.223372036854775e18 { self = .min }
        else { self = Int(value) }
    }
}
