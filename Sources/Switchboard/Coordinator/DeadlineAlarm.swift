import Dispatch
import Synchronization

/// Runs an action once after a delay of real time, unless cancelled first: the default deadline's
/// timer. A dispatch timer, not a sleeping task: on Linux a cancelled `Task.sleep` stays queued (with
/// its allocation) until its deadline, so one per call with a deadline of minutes held memory in
/// proportion to the request rate (the soak grew 117 % over a million requests). Cancelling a dispatch
/// timer frees it at once.
final class DeadlineAlarm: @unchecked Sendable {
    // A dispatch source is thread-safe; `@unchecked` because the protocol is not marked Sendable.
    private let source: any DispatchSourceTimer
    private let rang = Flag()

    private final class Flag: Sendable { let value = Atomic<Bool>(false) }

    init(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        // Clamped to a year (a budget may be any Duration): the conversion cannot overflow.
        let milliseconds = Int(min(max(delay.seconds * 1000, 0), 365 * 86_400 * 1000))
        source.schedule(deadline: .now() + .milliseconds(milliseconds))
        source.setEventHandler { [rang] in
            rang.value.store(true, ordering: .releasing)
            action()
        }
        source.activate()
    }

    /// Whether the deadline came before `cancel()`.
    var fired: Bool { rang.value.load(ordering: .acquiring) }

    func cancel() { source.cancel() }
}
