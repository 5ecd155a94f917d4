/// The decisions of one request across its provider calls, with no I/O: which provider to try next,
/// whether it may still receive the request when dispatched (privacy, its breaker), whether to hedge,
/// retry, fall back, cool a provider down, resume a half-streamed answer elsewhere, or stop. The
/// coordinator performs each `Action` (look a provider up, ask its breaker, take a slot, call, sleep,
/// update a breaker) and feeds back what it found; every rule lives here, so it is tested without
/// tasks, with time as an input (like `CircuitBreaker` and `ModelLifecycle`).
///
/// Inputs: `start`; after `.check` `located` (or `skipped`); after `.admit` `breakerAnswered`; after
/// `.acquire` `slotUnavailable` or `admitted`; after `.call` `callFinished`; after `.retry` `wokeUp`;
/// after `.updateBreaker` `breakerUpdated`; `cancelled` at any point. Each returns the next action,
/// until `.finish`.
package struct AttemptStateMachine: Sendable {
    package struct Candidate: Sendable, Hashable {
        package var id: ProviderID
        package var isOnDevice: Bool
        package var maxContextTokens: Int
        /// Where it runs, for the privacy re-check at dispatch; derived from `isOnDevice` when not given.
        package var locality: ProviderLocality
        package init(id: ProviderID, isOnDevice: Bool, maxContextTokens: Int, locality: ProviderLocality? = nil) {
            self.id = id; self.isOnDevice = locality.map { $0 == .device } ?? isOnDevice; self.maxContextTokens = maxContextTokens
            self.locality = locality ?? (isOnDevice ? .device : .thirdPartyCloud)
        }
    }

    /// One provider call to make, with the events to yield before it.
    package struct CallPlan: Sendable {
        package var provider: ProviderID
        /// 1 for the first call of the request, counting retries, fallbacks and resumes.
        package var attempt: Int
        /// The answer so far (or its end, when it does not all fit this provider's context), to be
        /// continued (a resume); nil for a fresh call.
        package var answerPrefix: String?
        /// `fallback` or `resumed` (when another provider takes over), then `providerChosen` (with a
        /// stream only: `respond` has nobody to tell).
        package var events: [SwitchboardEvent]
        /// Whether this call is a fallback from the request's first provider (for metrics).
        package var isFallback: Bool
        /// One call, or a hedged one.
        package var strategy: CallStrategy
    }

    /// How a call is made. The machine picks; the coordinator has one routine per strategy.
    package enum CallStrategy: Sendable, Hashable {
        case single
        /// Call the provider; if it has produced no token after the hedge delay, call `hedge` too (hedge
        /// budget, its breaker and a free slot allowing: `hedgeStarted` then, and `hedgeFinished` after
        /// the race). The first token wins.
        case hedged(by: Candidate)
    }

    package enum Action: Sendable {
        /// Look the provider up in the registry as it is now; answer with `located` (whether it is
        /// registered, where it runs, whether the caller gave up).
        case check(ProviderID)
        /// Ask the provider's circuit breaker; answer with `breakerAnswered`.
        case admit(ProviderID)
        /// Take a slot on the provider; answer with `slotUnavailable` or `admitted`.
        case acquire(ProviderID)
        /// Call the provider on the slot just taken; answer with `callFinished`.
        case call(CallPlan)
        /// Wait this long (a retry's backoff), then answer with `wokeUp`.
        case retry(after: Duration)
        /// Apply this to the provider's shared breaker, then answer with `breakerUpdated`.
        case updateBreaker(ProviderID, CircuitBreaker.Update)
        /// The request's answer (the one conversion from the last `CallReport`), or why there is none.
        case finish(Result<GenerationResponse, SwitchboardError>)
    }

    /// What one provider call did: the coordinator's consumer of the provider's stream folds its
    /// events into this, and it is the only form a call's result takes before the response.
    package struct CallReport: Sendable {
        package var result: Result<FinishReason, ProviderError>
        package var usage: TokenUsage?
        /// The call's own text (after any prefix it continued) and its token count.
        package var text: String
        package var tokens: Int
        /// The model's tool calls; yielded as events only when the call finishes (a failed call's are dropped).
        package var toolCalls: [ToolCall] = []
        /// Clock times: the call's start, its first token (if any) and its end.
        package var started: Duration
        package var firstTokenAt: Duration?
        package var now: Duration
        /// The caller's task was cancelled when the call ended: a failure then ends the request.
        package var callerCancelled = false

        package init(result: Result<FinishReason, ProviderError>, usage: TokenUsage? = nil, text: String = "",
                    tokens: Int = 0, started: Duration? = nil, firstTokenAt: Duration? = nil, now: Duration) {
            self.result = result; self.usage = usage; self.text = text; self.tokens = tokens
            self.started = started ?? now; self.firstTokenAt = firstTokenAt; self.now = now
        }

        package var error: ProviderError? { if case .failure(let e) = result { e } else { nil } }
        package var duration: Duration { now - started }
        package var timeToFirstToken: Duration? { firstTokenAt.map { $0 - started } }
    }

    package let candidates: [Candidate]
    package let retry: RetryPolicy
    package let privacy: PrivacyPolicy
    package let level: PrivacyLevel
    /// Whether tokens reach a caller as they come (a stream): only then is a half answer resumed
    /// rather than started over.
    package let streaming: Bool
    package let maxResumes: Int
    package let deadline: Duration?
    /// When the request started (the response's timings count from here).
    package let start: Duration
    /// Whether the request wants hedged calls (`GenerationRequest.hedge` or the configuration).
    package let hedging: Bool
    /// The request's size, to weigh a server's context claim and cap the text a resume carries.
    package let size: RequestSize

    // What happened so far.
    package internal(set) var index = 0
    package internal(set) var attemptsOnCurrent = 0
    package internal(set) var totalAttempts = 0
    package internal(set) var resumes = 0
    package internal(set) var firstProvider: ProviderID?
    package internal(set) var failures: [AttemptFailure] = []
    package internal(set) var skipped: [Ineligibility]
    package internal(set) var audit: [RoutingAuditRecord.Attempt] = []
    package internal(set) var queueWait: Duration = .zero
    /// Text already delivered to the caller by calls that then failed; the next call continues it.
    package internal(set) var delivered = ""
    package internal(set) var deliveredTokens = 0
    /// Hedge calls started so far.
    package internal(set) var hedges = 0
    /// The first token the caller saw, over all calls (a stream's time to first token).
    package internal(set) var firstTokenAt: Duration?
    /// The action that follows a breaker update the machine asked for.
    var afterBreakerUpdate: Action?
    /// The current provider's breaker admitted a half-open probe: a slot that cannot be had frees it.
    var holdsProbe = false
    var pending: Handover?
    /// The audit entry of a hedge call still racing.
    var hedgeAudit: Int?
    var minimumContext: Int?
    var slotError: SwitchboardError?

    /// Why the next call is made by another provider (or again by the same one, for a resume).
    struct Handover: Sendable {
        var from: ProviderID
        var reason: ProviderError
        var isResume: Bool
    }

    package init(candidates: [Candidate], level: PrivacyLevel, retry: RetryPolicy, privacy: PrivacyPolicy,
                streaming: Bool, maxResumes: Int, deadline: Duration?, size: RequestSize = RequestSize(),
                skipped: [Ineligibility] = [], start: Duration = .zero, hedging: Bool = false) {
        self.candidates = candidates; self.level = level; self.retry = retry; self.privacy = privacy
        self.streaming = streaming; self.maxResumes = max(0, maxResumes); self.deadline = deadline
        self.size = size; self.skipped = skipped; self.start = start; self.hedging = hedging
    }

    package var currentProvider: ProviderID? { index < candidates.count ? candidates[index].id : nil }
}
