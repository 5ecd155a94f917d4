/// The decisions of one request across its provider calls, with no I/O: which provider to try next,
/// whether to retry, fall back, resume a half-streamed answer elsewhere, or stop. The coordinator
/// performs each `Action` (take a slot, call, sleep) and feeds back what happened; every rule lives
/// here, so it is tested without tasks (like `CircuitBreaker` and `ModelLifecycle`).
///
/// Inputs: `start`, then after `.acquire` one of `skipped`/`slotUnavailable`/`admitted`, after `.call`
/// `callFinished`, after `.retry` `wokeUp`; `cancelled` at any point. Each returns the next action,
/// until `.finish`.
public struct AttemptStateMachine: Sendable {
    public struct Candidate: Sendable, Hashable {
        public var id: ProviderID
        public var isOnDevice: Bool
        public var maxContextTokens: Int
        /// Where it runs, for the privacy re-check at dispatch; derived from `isOnDevice` when not given.
        public var locality: ProviderLocality
        public init(id: ProviderID, isOnDevice: Bool, maxContextTokens: Int, locality: ProviderLocality? = nil) {
            self.id = id; self.isOnDevice = locality.map { $0 == .device } ?? isOnDevice; self.maxContextTokens = maxContextTokens
            self.locality = locality ?? (isOnDevice ? .device : .thirdPartyCloud)
        }
    }

    /// One provider call to make, with the events to yield before it.
    public struct CallPlan: Sendable {
        public var provider: ProviderID
        /// 1 for the first call of the request, counting retries, fallbacks and resumes.
        public var attempt: Int
        /// The answer so far (or its end, when it does not all fit this provider's context), to be
        /// continued (a resume); nil for a fresh call.
        public var answerPrefix: String?
        /// `fallback` or `resumed` (when another provider takes over), then `providerChosen` (with a
        /// stream only: `respond` has nobody to tell).
        package var events: [SwitchboardEvent]
        /// Whether this call is a fallback from the request's first provider (for metrics).
        public var isFallback: Bool
    }

    public enum Action: Sendable {
        /// Check the provider's breaker and take a slot; answer with `skipped`, `slotUnavailable` or `admitted`.
        case acquire(ProviderID)
        /// Call the provider on the slot just taken; answer with `callFinished`.
        case call(CallPlan)
        /// Wait this long (a retry's backoff), then answer with `wokeUp`.
        case retry(after: Duration)
        case finish(Result<Success, SwitchboardError>)
    }

    /// How the request ended well: the provider whose call finished it and the whole answer.
    public struct Success: Sendable, Hashable {
        public var provider: ProviderID
        /// Everything the caller received: resumed prefixes plus the last call's text.
        public var text: String
        public var reason: FinishReason
        public var usage: TokenUsage?
    }

    /// What one provider call did.
    public struct CallReport: Sendable, Hashable {
        public var result: Result<FinishReason, ProviderError>
        public var usage: TokenUsage?
        /// The call's own text (after any prefix it continued) and its token count.
        public var text: String
        public var tokens: Int
        public var now: Duration
        public init(result: Result<FinishReason, ProviderError>, usage: TokenUsage? = nil, text: String = "",
                    tokens: Int = 0, now: Duration) {
            self.result = result; self.usage = usage; self.text = text; self.tokens = tokens; self.now = now
        }
    }

    public let candidates: [Candidate]
    public let retry: RetryPolicy
    public let privacy: PrivacyPolicy
    public let level: PrivacyLevel
    /// Whether tokens reach a caller as they come (a stream): only then is a half answer resumed
    /// rather than started over.
    public let streaming: Bool
    public let maxResumes: Int
    public let deadline: Duration?
    /// The request's size, to weigh a server's context claim and cap the text a resume carries.
    public let size: RequestSize

    // What happened so far.
    public internal(set) var index = 0
    public internal(set) var attemptsOnCurrent = 0
    public internal(set) var totalAttempts = 0
    public internal(set) var resumes = 0
    public internal(set) var firstProvider: ProviderID?
    public internal(set) var failures: [AttemptFailure] = []
    public internal(set) var skipped: [Ineligibility]
    public internal(set) var audit: [RoutingAuditRecord.Attempt] = []
    public internal(set) var queueWait: Duration = .zero
    /// Text already delivered to the caller by calls that then failed; the next call continues it.
    public internal(set) var delivered = ""
    public internal(set) var deliveredTokens = 0
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

    public init(candidates: [Candidate], level: PrivacyLevel, retry: RetryPolicy, privacy: PrivacyPolicy,
                streaming: Bool, maxResumes: Int, deadline: Duration?, size: RequestSize = RequestSize(),
                skipped: [Ineligibility] = []) {
        self.candidates = candidates; self.level = level; self.retry = retry; self.privacy = privacy
        self.streaming = streaming; self.maxResumes = max(0, maxResumes); self.deadline = deadline
        self.size = size; self.skipped = skipped
    }

    public var currentProvider: ProviderID? { index < candidates.count ? candidates[index].id : nil }
}
