import SwitchboardCore
import Synchronization

/// A clock that moves only when a test advances it (kept local so these tests need no TestKit).
/// Sleeping advances the clock to the deadline at once.
final class StepClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }
    private let time = Lock(Duration.zero)
    var now: Instant { Instant(offset: time.withLock { $0 }) }
    var minimumResolution: Duration { .nanoseconds(1) }
    func advance(by duration: Duration) { time.withLock { $0 += duration } }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        time.withLock { $0 = max($0, deadline.offset) }
    }
}
