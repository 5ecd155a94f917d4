import SwitchboardCore
import Synchronization

/// A clock on which sleeping takes no real time: `sleep(until:)` moves the clock to the deadline and
/// returns at once (throwing if the task is cancelled). For tests of backoff and deadlines that want
/// virtual time to pass without driving a `ManualClock`.
public final class ImmediateClock: Clock, Sendable {
    public typealias Instant = ManualClock.Instant
    private let current = Lock(Instant(offset: .zero))

    public init() {}

    public var now: Instant { current.withLock { $0 } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { if $0 < deadline { $0 = deadline } }
        await Task.yield()
        try Task.checkCancellation()
    }

    /// Moves time forward without sleeping.
    public func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: max(duration, .zero)) } }
}
