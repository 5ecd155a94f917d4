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
    /// Saturating: NaN is zero, and anything past ±292 years (±inf included) is clamped there, so a
    /// caller's or a server's number can never trap the conversion.
    public static func seconds(_ value: Double) -> Duration {
        let nanoseconds = (value * 1e9).rounded()
        guard !nanoseconds.isNaN else { return .zero }
        // Int64(exactly:) fails past the ends; 2^63 itself is not representable as Int64.
        if nanoseconds >= 9.223_372_036_854_775_807e18 { return .nanoseconds(Int64.max) }
        if nanoseconds <= -9.223_372_036_854_775_807e18 { return .nanoseconds(Int64.min) }
        return .nanoseconds(Int64(nanoseconds))
    }
}
