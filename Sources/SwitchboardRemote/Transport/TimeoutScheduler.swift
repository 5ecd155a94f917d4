import Dispatch
import Synchronization
import SwitchboardCore

/// Arms the transport's request and idle timeouts.
///
/// Real time goes through Dispatch (a work item on a private serial queue) rather than a task sleeping
/// on a clock: resuming such a task needs a free Swift cooperative thread, and with the pool saturated
/// (two threads on a 2-core machine, busy with CPU-heavy work) a 300 ms timeout fired seconds late,
/// after the server had given up and closed the connection, so the caller saw a URLError instead of
/// `.timeout`. An injected clock (tests) keeps the task-based timer, so tests stay deterministic.
struct TimeoutScheduler: Sendable {
    private let arm: @Sendable (Duration, @escaping @Sendable () -> Void) -> TimeoutHandle

    /// Wall-clock timeouts on a Dispatch queue, independent of the cooperative pool.
    static let realTime = TimeoutScheduler { delay, action in
        let pending = PendingAction(action)
        timerQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: delay.nanoseconds))) { pending.take()?() }
        return TimeoutHandle { _ = pending.take() }
    }

    /// Timeouts measured on `clock` (a manual or immediate clock in tests).
    static func clock(_ clock: ClockSource) -> TimeoutScheduler {
        TimeoutScheduler { delay, action in
            let task = Task {
                do { try await clock.sleep(for: delay) } catch { return }
                action()
            }
            return TimeoutHandle { task.cancel() }
        }
    }

    /// Real time for the system clocks, the clock itself otherwise.
    static func forClock<C: Clock>(_ clock: C) -> TimeoutScheduler where C.Duration == Duration {
        clock is ContinuousClock || clock is SuspendingClock ? .realTime : .clock(ClockSource(clock))
    }

    init(arm: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> TimeoutHandle) { self.arm = arm }

    /// Calls `action` once `delay` has passed, unless the handle is cancelled first.
    func after(_ delay: Duration, _ action: @escaping @Sendable () -> Void) -> TimeoutHandle { arm(delay, action) }

    private static let timerQueue = DispatchQueue(label: "switchboard.remote.timeouts")
}

/// Cancels one armed timeout (idempotent; harmless after it fired).
struct TimeoutHandle: Sendable {
    let cancel: @Sendable () -> Void
}

/// An action that runs at most once; cancelling releases it (and what it captures) at once rather
/// than when the Dispatch timer comes due.
private final class PendingAction: Sendable {
    private let action: Lock<(@Sendable () -> Void)?>
    init(_ action: @escaping @Sendable () -> Void) { self.action = Lock(action) }
    func take() -> (@Sendable () -> Void)? { action.withLock { value in defer { value = nil }; return value } }
}

extension Duration {
    /// Whole nanoseconds, clamped to Int64.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
