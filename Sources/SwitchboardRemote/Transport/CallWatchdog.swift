import Synchronization
import SwitchboardCore

/// Enforces `CallDeadlines` on one running call: a timer re-checks the deadlines when the earliest
/// one comes due (lazily: tokens only move a time stamp), and on expiry records the typed reason and
/// cancels the call's task. The reason is recorded before the cancel, so the call reports it instead
/// of the cancellation it causes.
final class CallWatchdog: Sendable {
    private struct State {
        var deadlines: CallDeadlines?
        var timer: TimeoutHandle?
        var expired: ProviderError?
        var cancel: (@Sendable () -> Void)?
        var finished = false
    }

    private let state = Lock(State())
    private let clock: ClockSource
    private let timers: TimeoutScheduler

    init(clock: ClockSource, timers: TimeoutScheduler) {
        self.clock = clock; self.timers = timers
    }

    /// What to call on expiry (cancels the call's task); called at once if it already expired.
    func attach(_ cancel: @escaping @Sendable () -> Void) {
        let expired = state.withLock { s in s.cancel = cancel; return s.expired != nil }
        if expired { cancel() }
    }

    /// Starts the clocks: the request is about to go out.
    func begin(tokenTimeout: Duration, totalTimeout: Duration) {
        state.withLock { s in
            guard !s.finished else { return }
            s.deadlines = CallDeadlines(start: clock.now(), tokenTimeout: tokenTimeout, totalTimeout: totalTimeout)
            arm(&s)
        }
    }

    /// The body began, or a token arrived.
    func progress() {
        let now = clock.now()
        let stale: TimeoutHandle? = state.withLock { s in
            guard !s.finished, var deadlines = s.deadlines else { return nil }
            let began = deadlines.lastProgress == nil
            deadlines.progress(at: now)
            s.deadlines = deadlines
            // A token only moves the stall time later (the timer re-checks lazily); the body's start
            // brings in a deadline earlier than the armed one.
            guard began else { return nil }
            let old = s.timer
            arm(&s)
            return old
        }
        stale?.cancel()
    }

    /// Why the watchdog ended the call, if it did.
    var reason: ProviderError? { state.withLock { $0.expired } }

    /// The call is over; the timer is released.
    func finish() {
        let timer = state.withLock { s in
            s.finished = true
            defer { s.timer = nil }
            return s.timer
        }
        timer?.cancel()
    }

    private func arm(_ s: inout State) {
        guard let deadlines = s.deadlines else { return }
        let now = clock.now()
        // Already past (a zero timeout): fire at once, from the timer, outside this lock.
        let delay = if case .recheck(let at) = deadlines.check(at: now) { at - now } else { Duration.zero }
        s.timer = timers.after(delay) { self.fired() }
    }

    private func fired() {
        let cancel: (@Sendable () -> Void)? = state.withLock { s in
            guard !s.finished, let deadlines = s.deadlines else { return nil }
            switch deadlines.check(at: clock.now()) {
            case .expired(let error):
                s.expired = error; s.finished = true; s.timer = nil
                return s.cancel
            case .recheck:
                arm(&s)
                return nil
            }
        }
        cancel?()
    }
}
