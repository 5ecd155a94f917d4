import Testing
@testable import SwitchboardCore

@Suite("Retry policy")
struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttemptsPerProvider: 3, maxAttempts: 5, baseDelay: .milliseconds(100),
                             maxDelay: .seconds(1), multiplier: 2, jitter: 0.5)

    func decide(_ error: ProviderError, onProvider: Int = 1, total: Int = 1, delivered: Bool = false,
                now: Duration = .zero, deadline: Duration? = nil, budget: Bool = true) -> FailureDecision {
        var random = SeededRandom(seed: 7)
        return policy.decide(FailureContext(error: error, attemptsOnProvider: onProvider, totalAttempts: total,
                                            tokensDelivered: delivered, now: now, deadline: deadline,
                                            budgetAllowsRetry: budget), random: &random)
    }

    @Test("Classes: retryable errors retry, fallback-only errors fall back, a cancellation stops")
    func classes() {
        for error in [ProviderError.timeout, .tokenTimeout(.seconds(30)), .callTimeout(.seconds(300)), .transport("reset"),
                      .server(status: 503, message: "busy"), .rateLimited(retryAfter: nil), .malformedResponse("x")] {
            guard case .retry = decide(error) else { Issue.record("\(error) should retry"); continue }
        }
        // A refusal, a provider-specific invalid request, bad credentials or an oversized reply end the
        // calls to this provider only: the next eligible provider gets the request.
        for error in [ProviderError.authentication("key"), .unknownModel("m"), .budgetExceeded("b"), .unavailable("u"),
                      .invalidRequest("bad"), .contentPolicy("no"), .responseTooLarge(what: "the body", limit: 1)] {
            #expect(decide(error) == .fallback(minimumContext: nil), "\(error)")
        }
        #expect(decide(.cancelled) == .fail(.cancelled))
    }

    @Test("A Retry-After past the cap falls back now and cools the provider down for that long")
    func longRetryAfter() {
        let capped = RetryPolicy(maxRetryAfterWait: .seconds(5), maxCooldown: .seconds(7200))
        var random = SeededRandom(seed: 1)
        func decide(_ error: ProviderError) -> FailureDecision {
            capped.decide(FailureContext(error: error, attemptsOnProvider: 1, totalAttempts: 1), random: &random)
        }
        #expect(decide(.rateLimited(retryAfter: .seconds(3600))) == .fallback(minimumContext: nil))
        #expect(capped.cooldown(after: .rateLimited(retryAfter: .seconds(3600))) == .seconds(3600))
        // An HTTP date in 2100 is ~2.4e9 s away: the cool-down stops at the cap.
        #expect(capped.cooldown(after: .rateLimited(retryAfter: .seconds(2_400_000_000))) == .seconds(7200))
        // Within the cap: waited out on the same provider, no cool-down.
        #expect(decide(.rateLimited(retryAfter: .seconds(5))) == .retry(after: .seconds(5)))
        #expect(capped.cooldown(after: .rateLimited(retryAfter: .seconds(5))) == nil)
        #expect(capped.cooldown(after: .rateLimited(retryAfter: nil)) == nil)
        #expect(capped.cooldown(after: .timeout) == nil)
    }

    @Test("Seconds as a Double saturate instead of trapping")
    func saturatingSeconds() {
        #expect(Duration.seconds(Double.infinity) == .nanoseconds(Int64.max))
        #expect(Duration.seconds(1e300) == .nanoseconds(Int64.max))
        #expect(Duration.seconds(-Double.infinity) == .nanoseconds(Int64.min))
        #expect(Duration.seconds(Double.nan) == .zero)
        #expect(Duration.seconds(1.5) == .milliseconds(1500))
    }

    @Test("Context length exceeded falls back only to a larger context")
    func contextLength() {
        #expect(decide(.contextLengthExceeded(limit: 2048, requested: 3000)) == .fallback(minimumContext: 2048))
    }

    @Test("Backoff grows exponentially within the jitter band and is capped")
    func backoff() {
        var random = SeededRandom(seed: 1)
        for retry in 1...8 {
            let raw = min(0.1 * Double(1 << (retry - 1)), 1.0)
            let delay = policy.backoff(retry: retry, random: &random).seconds
            #expect(delay >= raw * 0.5 - 1e-9 && delay <= raw + 1e-9, "retry \(retry): \(delay)")
        }
    }

    @Test("Jitter is deterministic per seed and varies between draws")
    func jitterDeterministic() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42)
        let first = (0..<5).map { _ in policy.backoff(retry: 2, random: &a) }
        let second = (0..<5).map { _ in policy.backoff(retry: 2, random: &b) }
        #expect(first == second)
        #expect(Set(first).count > 1)
    }

    @Test("rateLimited waits at least retryAfter")
    func retryAfter() {
        #expect(decide(.rateLimited(retryAfter: .seconds(5)), deadline: nil) == .retry(after: .seconds(5)))
    }

    @Test("Caps: per provider, overall, budget and deadline")
    func caps() {
        #expect(decide(.timeout, onProvider: 3, total: 3) == .fallback(minimumContext: nil))
        #expect(decide(.timeout, onProvider: 1, total: 5) == .fail(.attemptsExhausted))
        #expect(decide(.timeout, budget: false) == .fallback(minimumContext: nil))
        #expect(decide(.rateLimited(retryAfter: .seconds(2)), now: .seconds(1), deadline: .seconds(2)) == .fallback(minimumContext: nil))
    }

    @Test("Never retries once tokens reached the caller")
    func midStream() {
        #expect(decide(.timeout, delivered: true) == .fail(.tokensDelivered))
        #expect(decide(.unavailable("x"), delivered: true) == .fail(.tokensDelivered))
    }
}
