import SwitchboardCore
import Synchronization

/// A clock that moves only when a test says so. `advance(by:)` wakes every sleeper whose deadline has
/// come, in deadline order. Thread-safe; share one instance between the runtime and the test.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the clock's start.
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelledBeforeSleeping: Set<UInt64> = []
    }

    private let state = Lock(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Tasks currently asleep on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s -> UInt64 in s.nextID += 1; return s.nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { s in
                    if s.cancelledBeforeSleeping.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= s.now { return .success(()) }
                    s.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { s -> Sleeper? in
                if let sleeper = s.sleepers.removeValue(forKey: id) { return sleeper }
                s.cancelledBeforeSleeping.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and resumes the sleepers now due, earliest deadline first.
    public func advance(by duration: Duration) {
        let due = state.withLock { s -> [Sleeper] in
            s.now = s.now.advanced(by: max(duration, .zero))
            let now = s.now
            let ready = s.sleepers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in ready { s.sleepers.removeValue(forKey: id) }
            return ready.map(\.value)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time forward to `instant` (no-op if it is in the past).
    public func advance(to instant: Instant) { advance(by: now.duration(to: instant)) }

    /// Waits (yielding, not sleeping) until at least `count` tasks sleep on this clock; false if that
    /// did not happen within `maxYields` yields.
    @discardableResult
    public func waitForSleepers(_ count: Int, maxYields: Int = 100_000) async -> Bool {
        for _ in 0..<maxYields {
            if sleeperCount >= count { return true }
            await Task.yield()
        }
        return sleeperCount >= count
    }
}

extension ManualClock.Instant: Comparable {}
