import SwitchboardCore

/// The two limits on one remote call, as a value: a whole-call deadline from the start, and "no new
/// token for `tokenTimeout`" from the moment the body begins. Bytes do not count as progress, only
/// tokens: a server sending keep-alive comments, empty deltas or one endless line never resets it.
/// Times are plain durations on one clock, so the decision is tested with numbers.
struct CallDeadlines: Sendable, Hashable {
    enum Check: Sendable, Hashable {
        /// A limit has passed: end the call with this error.
        case expired(ProviderError)
        /// Nothing has passed yet; look again at this time.
        case recheck(at: Duration)
    }

    let start: Duration
    let tokenTimeout: Duration
    let totalTimeout: Duration
    /// When the body began or the last token came; nil before the body (the head has its own timeout).
    private(set) var lastProgress: Duration?

    init(start: Duration, tokenTimeout: Duration, totalTimeout: Duration) {
        self.start = start
        self.tokenTimeout = max(tokenTimeout, .zero); self.totalTimeout = max(totalTimeout, .zero)
    }

    /// The body began, or a token arrived.
    mutating func progress(at now: Duration) { lastProgress = max(lastProgress ?? now, now) }

    func check(at now: Duration) -> Check {
        let end = start + totalTimeout
        if now >= end { return .expired(.callTimeout(totalTimeout)) }
        guard let lastProgress else { return .recheck(at: end) }
        let stall = lastProgress + tokenTimeout
        if now >= stall { return .expired(.tokenTimeout(tokenTimeout)) }
        return .recheck(at: min(end, stall))
    }
}
