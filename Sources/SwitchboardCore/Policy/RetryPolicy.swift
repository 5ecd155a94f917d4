/// What to do after a provider call failed.
package enum FailureDecision: Sendable, Hashable {
    /// Call the same provider again after this delay.
    case retry(after: Duration)
    /// Try the next candidate. With `minimumContext`, only a provider whose context is larger than that.
    case fallback(minimumContext: Int?)
    /// Stop: the request fails.
    case fail(FailureReason)
}

package enum FailureReason: Sendable, Hashable {
    /// The error says no provider should get this request again (today only a cancellation).
    case finalError
    /// Tokens already reached the caller; a retry would repeat them.
    case tokensDelivered
    /// The overall attempt cap was reached.
    case attemptsExhausted
    /// Waiting for a retry would overrun the latency budget.
    case deadline
    case cancelled
}

/// The facts about one failure that the decision depends on.
package struct FailureContext: Sendable, Hashable {
    package var error: ProviderError
    /// Calls already made to this provider for this request, including the failed one.
    package var attemptsOnProvider: Int
    /// Calls made for this request overall, including the failed one.
    package var totalAttempts: Int
    /// Whether any token of the failed call reached the caller.
    package var tokensDelivered: Bool
    /// Time now and the request's deadline, on the same clock.
    package var now: Duration
    package var deadline: Duration?
    /// Whether the retry budget has room for one more retry.
    package var budgetAllowsRetry: Bool

    package init(error: ProviderError, attemptsOnProvider: Int, totalAttempts: Int, tokensDelivered: Bool = false,
                now: Duration = .zero, deadline: Duration? = nil, budgetAllowsRetry: Bool = true) {
        self.error = error; self.attemptsOnProvider = attemptsOnProvider; self.totalAttempts = totalAttempts
        self.tokensDelivered = tokensDelivered; self.now = now; self.deadline = deadline
        self.budgetAllowsRetry = budgetAllowsRetry
    }
}

/// Retries with jittered exponential backoff, capped per provider and overall, inside one deadline.
public struct RetryPolicy: Sendable, Hashable {
    /// Calls to one provider for one request, the first included.
    public var maxAttemptsPerProvider: Int
    /// Calls for one request across all providers (retries and fallbacks included).
    public var maxAttempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    public var multiplier: Double
    /// Fraction of each delay that is randomized (0 = none, 1 = "full jitter").
    public var jitter: Double
    /// The longest `Retry-After` worth waiting out on the same provider. A longer one (a server asking
    /// for an hour, or for a date in 2100) cools the provider down instead, and the request falls back
    /// at once rather than sleeping.
    public var maxRetryAfterWait: Duration
    /// The longest such cool-down; past it the provider is tried again (as a circuit-breaker probe).
    public var maxCooldown: Duration

    public init(maxAttemptsPerProvider: Int = 2, maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(50),
                maxDelay: Duration = .seconds(2), multiplier: Double = 2, jitter: Double = 0.5,
                maxRetryAfterWait: Duration = .seconds(5), maxCooldown: Duration = .seconds(3600)) {
        self.maxAttemptsPerProvider = max(1, maxAttemptsPerProvider); self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay); self.maxDelay = max(baseDelay, maxDelay)
        self.multiplier = max(1, multiplier); self.jitter = min(max(jitter, 0), 1)
        self.maxRetryAfterWait = max(.zero, maxRetryAfterWait); self.maxCooldown = max(.zero, maxCooldown)
    }

    /// How long to keep the failed provider out of routing, if at all: a rate limit whose
    /// `Retry-After` exceeds `maxRetryAfterWait`, capped at `maxCooldown`. The caller applies it
    /// (`CircuitBreaker.coolDown(until:)`); `decide` already falls back for such an error.
    public func cooldown(after error: ProviderError) -> Duration? {
        guard case .rateLimited(let after?) = error, after > maxRetryAfterWait else { return nil }
        return min(after, maxCooldown)
    }

    /// The delay before retry number `retry` (1 for the first retry).
    package func backoff(retry: Int, random: inout SeededRandom) -> Duration {
        let exponent = Double(max(0, retry - 1))
        let raw = min(baseDelay.seconds * Self.power(multiplier, exponent), maxDelay.seconds)
        let jittered = raw * (1 - jitter) + raw * jitter * random.nextUnit()
        return .seconds(jittered)
    }

    /// base^exponent for a whole exponent, saturating early (delays are capped anyway).
    static func power(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(min(exponent, 1_000))
        while remaining > 0 && result < 1e12 { result *= base; remaining -= 1 }
        return result
    }

    package func decide(_ context: FailureContext, random: inout SeededRandom) -> FailureDecision {
        let error = context.error
        if error == .cancelled { return .fail(.cancelled) }
        if context.tokensDelivered { return .fail(.tokensDelivered) }
        if error.classification == .final { return .fail(.finalError) }
        if context.totalAttempts >= maxAttempts { return .fail(.attemptsExhausted) }
        if case .contextLengthExceeded(let limit, _) = error { return .fallback(minimumContext: limit) }
        if cooldown(after: error) != nil { return .fallback(minimumContext: nil) }
        guard error.classification == .retryable, context.attemptsOnProvider < maxAttemptsPerProvider,
              context.budgetAllowsRetry else { return .fallback(minimumContext: nil) }
        var delay = backoff(retry: context.attemptsOnProvider, random: &random)
        if case .rateLimited(let after?) = error { delay = max(delay, after) }
        if let deadline = context.deadline, context.now + delay >= deadline {
            // No time to wait here; another provider may still answer at once.
            return .fallback(minimumContext: nil)
        }
        return .retry(after: delay)
    }
}
