import SwitchboardCore

/// A way an OpenAI-compatible server fails, as `FaultyChatServer` injects it.
public enum ChatFault: String, Sendable, CaseIterable, CustomStringConvertible {
    /// 429 with `Retry-After` (seconds).
    case rateLimitedRetryAfter = "429-retry-after"
    /// 429 without `Retry-After`.
    case rateLimited = "429"
    case serverError = "500"
    case unavailable = "503"
    /// The request is read and never answered: no status line until the client gives up.
    case timeout
    /// The connection is reset before anything is sent.
    case resetBeforeFirstToken = "reset-before-token"
    /// One or two deltas reach the client, then the connection is reset.
    case resetAfterFirstToken = "reset-after-token"
    /// A delta, then a chunk that is not JSON.
    case malformedJSON = "malformed-json"
    /// A few deltas, then the stream ends cleanly but without a finish reason or `[DONE]`.
    case truncatedStream = "truncated-sse"
    /// A first delta, then nothing more while the socket stays open.
    case stalledStream = "stalled-stream"

    public var description: String { rawValue }

    /// Whether the client sees text before this fault strikes (streaming replies).
    public var strikesAfterFirstToken: Bool {
        switch self {
        case .resetAfterFirstToken, .malformedJSON, .truncatedStream, .stalledStream: true
        default: false
        }
    }
}

/// Which requests get the fault: a pure function of (seed, request index), so a run replays exactly
/// whatever the arrival order of concurrent requests.
public struct ChatFaultPlan: Sendable, Hashable {
    public var fault: ChatFault?
    /// Fraction of requests that get the fault, 0…1.
    public var rate: Double
    public var seed: UInt64

    public init(fault: ChatFault?, rate: Double, seed: UInt64 = 1) {
        self.fault = fault; self.rate = rate.isFinite ? min(max(rate, 0), 1) : 0; self.seed = seed
    }

    public static let healthy = ChatFaultPlan(fault: nil, rate: 0)

    /// The fault for the request with this index (0 for the first received), or nil.
    public func fault(forRequest index: Int) -> ChatFault? {
        guard let fault, rate > 0 else { return nil }
        if rate >= 1 { return fault }
        var random = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
        return random.nextUnit() < rate ? fault : nil
    }
}
