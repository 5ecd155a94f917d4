/// A per-provider circuit breaker as a value: callers pass the time in and act on what it returns, so
/// tests drive it with plain numbers.
///
/// closed → open after `consecutiveFailures` failures in a row, or when the failure ratio over the
/// window reaches `failureRatio` with at least `minimumCalls` calls; open → half-open once the open
/// time has passed; half-open admits `halfOpenProbes` calls at a time; a probe's success closes the
/// breaker, its failure re-opens it for longer (exponential in repeated ejections, capped).
public struct CircuitBreaker: Sendable, Hashable {
    public struct Configuration: Sendable, Hashable {
        public var consecutiveFailures: Int
        public var failureRatio: Double
        public var minimumCalls: Int
        public var window: Duration
        public var openDuration: Duration
        public var maxOpenDuration: Duration
        public var backoffMultiplier: Double
        public var halfOpenProbes: Int

        public init(consecutiveFailures: Int = 5, failureRatio: Double = 0.5, minimumCalls: Int = 20,
                    window: Duration = .seconds(30), openDuration: Duration = .seconds(5),
                    maxOpenDuration: Duration = .seconds(300), backoffMultiplier: Double = 2, halfOpenProbes: Int = 1) {
            self.consecutiveFailures = max(1, consecutiveFailures); self.failureRatio = min(max(failureRatio, 0), 1)
            self.minimumCalls = max(1, minimumCalls); self.window = window
            self.openDuration = max(.zero, openDuration); self.maxOpenDuration = max(openDuration, maxOpenDuration)
            self.backoffMultiplier = max(1, backoffMultiplier); self.halfOpenProbes = max(1, halfOpenProbes)
        }
    }

    public enum State: Sendable, Hashable {
        case closed
        case open(until: Duration)
        case halfOpen
    }

    public enum Admission: Sendable, Hashable {
        case allowed
        /// Allowed as a half-open probe; report its outcome (or `recordCancelled`) to free the probe slot.
        case probe
        case rejected
    }

    public enum Transition: Sendable, Hashable {
        case opened(until: Duration)
        case halfOpened
        case closed
    }

    public let configuration: Configuration
    public private(set) var state: State = .closed
    public private(set) var consecutiveFailures = 0
    /// How many times the breaker opened without a quiet window in between.
    public private(set) var ejections = 0
    private var probesInFlight = 0
    private var closedAt: Duration = .zero
    /// first: calls, second: failures.
    private var window: WindowedCounter

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        window = WindowedCounter(window: configuration.window)
    }

    /// The state at `now`, moving open → half-open when the open time is over.
    public mutating func currentState(at now: Duration) -> State {
        if case .open(let until) = state, now >= until { state = .halfOpen; probesInFlight = 0 }
        return state
    }

    /// Whether a call may go out now.
    public mutating func admit(at now: Duration) -> Admission {
        switch currentState(at: now) {
        case .closed: return .allowed
        case .open: return .rejected
        case .halfOpen:
            guard probesInFlight < configuration.halfOpenProbes else { return .rejected }
            probesInFlight += 1
            return .probe
        }
    }

    @discardableResult
    public mutating func recordSuccess(at now: Duration) -> Transition? {
        switch currentState(at: now) {
        case .closed:
            consecutiveFailures = 0
            window.addFirst(at: now)
            return nil
        case .halfOpen:
            close(at: now)
            return .closed
        case .open:
            return nil  // a call admitted before the trip; its outcome is stale
        }
    }

    @discardableResult
    public mutating func recordFailure(at now: Duration) -> Transition? {
        switch currentState(at: now) {
        case .closed:
            consecutiveFailures += 1
            window.addFirst(at: now); window.addSecond(at: now)
            let (calls, failures) = window.totals(at: now)
            let ratioTrips = calls >= configuration.minimumCalls
                && Double(failures) >= configuration.failureRatio * Double(calls)
            guard consecutiveFailures >= configuration.consecutiveFailures || ratioTrips else { return nil }
            if now - closedAt >= configuration.window && ejections > 0 { ejections = 0 }
            return open(at: now)
        case .halfOpen:
            return open(at: now)
        case .open:
            return nil
        }
    }

    /// Keeps calls out until `until` (a provider that asked for a long `Retry-After`), then half-opens
    /// as after any ejection. Not counted as an ejection; an open time already longer is kept.
    public mutating func coolDown(until: Duration) {
        if case .open(let current) = state, current >= until { return }
        state = .open(until: until)
        probesInFlight = 0
    }

    /// A probe that ended without a verdict (cancelled) frees its slot.
    public mutating func recordCancelled() {
        if case .halfOpen = state, probesInFlight > 0 { probesInFlight -= 1 }
    }

    /// A change one request's decisions ask of the shared breaker (`AttemptStateMachine.Action.updateBreaker`).
    package enum Update: Sendable, Hashable {
        /// A probe was admitted for a call that never started (no slot): free it.
        case probeAbandoned
        /// The provider asked for a long pause (a `Retry-After` past the retry policy's limit).
        case coolDown(until: Duration)
    }

    package mutating func apply(_ update: Update) {
        switch update {
        case .probeAbandoned: recordCancelled()
        case .coolDown(let until): coolDown(until: until)
        }
    }

    /// How long the next ejection lasts.
    public var nextOpenDuration: Duration {
        var seconds = configuration.openDuration.seconds
        for _ in 0..<ejections where seconds < configuration.maxOpenDuration.seconds {
            seconds *= configuration.backoffMultiplier
        }
        return min(.seconds(seconds), configuration.maxOpenDuration)
    }

    private mutating func open(at now: Duration) -> Transition {
        let until = now + nextOpenDuration
        ejections += 1
        state = .open(until: until)
        probesInFlight = 0
        return .opened(until: until)
    }

    private mutating func close(at now: Duration) {
        state = .closed
        consecutiveFailures = 0
        probesInFlight = 0
        closedAt = now
        window.reset()
    }
}
