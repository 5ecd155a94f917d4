/// Any `Clock<Duration>` behind one concrete type, so actors take `some Clock<Duration>` in their
/// initializers without becoming generic. Time is read as the duration since this source was made.
public struct ClockSource: Sendable {
    private let nowSinceStart: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        nowSinceStart = { start.duration(to: clock.now) }
        sleeper = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
    }

    public static var continuous: ClockSource { ClockSource(ContinuousClock()) }

    /// Monotonic time since this source was created.
    public func now() -> Duration { nowSinceStart() }

    /// Sleeps on the wrapped clock; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        if duration <= .zero { try Task.checkCancellation(); return }
        try await sleeper(duration)
    }
}

extension Duration {
    /// Seconds as a Double, for arithmetic on rates and weights.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) * 1e-18
    }
    public static func seconds(_ value: Double) -> Duration { .nanoseconds(Int64((value * 1e9).rounded())) }
}
