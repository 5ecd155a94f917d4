/// A provider's failure, classified for the retry and fallback policy.
public enum ProviderError: Error, Sendable, Hashable, CustomStringConvertible {
    case timeout
    /// Connection refused, reset or dropped.
    case transport(String)
    /// An HTTP 5xx, 408 or 409 or a comparable server-side failure.
    case server(status: Int, message: String)
    case rateLimited(retryAfter: Duration?)
    /// Bad or missing credentials (401/403). Final: retrying cannot help.
    case authentication(String)
    /// The provider rejected this request as malformed for it (HTTP 400/413/422). Another provider,
    /// with its own limits and dialect, may take it.
    case invalidRequest(String)
    case unknownModel(String)
    /// The provider's content policy refused the request or stopped the reply; another provider
    /// (the on-device model included) may answer.
    case contentPolicy(String)
    /// The prompt does not fit; only a provider with a larger context can take it.
    case contextLengthExceeded(limit: Int, requested: Int)
    /// A reply that does not parse or a stream that ended without its completion marker.
    case malformedResponse(String)
    /// The provider's spending budget would be exceeded.
    case budgetExceeded(String)
    case unavailable(String)
    /// No new token for this long, though bytes may have kept coming (keep-alive comments, empty
    /// deltas, one endless line).
    case tokenTimeout(Duration)
    /// The whole call (response head and every byte of the body) took longer than this.
    case callTimeout(Duration)
    /// The decoded response (or one line of it) exceeds `limit` bytes: a decompression bomb or a
    /// runaway server. Reading stopped at the cap.
    case responseTooLarge(what: String, limit: Int)
    case cancelled

    public enum Class: Sendable, Hashable {
        /// Try again, here or elsewhere.
        case retryable
        /// This provider cannot serve this request; another one may.
        case fallbackOnly
        /// No provider should get this request again.
        case final
    }

    public var classification: Class {
        switch self {
        case .timeout, .tokenTimeout, .callTimeout, .transport, .server, .rateLimited, .malformedResponse: .retryable
        // Final for this provider only: a refusal, a rejected request or bad credentials here say
        // nothing about the next eligible provider.
        case .authentication, .unknownModel, .contextLengthExceeded, .budgetExceeded, .unavailable,
             .invalidRequest, .contentPolicy, .responseTooLarge: .fallbackOnly
        case .cancelled: .final
        }
    }

    public var isRetryable: Bool { classification == .retryable }

    /// Wraps an arbitrary error from a provider stream.
    public init(_ error: any Error) {
        if let error = error as? ProviderError { self = error }
        else if error is CancellationError { self = .cancelled }
        else { self = .transport(String(describing: type(of: error))) }
    }

    public var description: String {
        switch self {
        case .timeout: "the provider timed out"
        case .transport(let m): "transport failure: \(m)"
        case .server(let s, let m): "server error \(s): \(m)"
        case .rateLimited(let after): "rate limited" + (after.map { ", retry after \($0)" } ?? "")
        case .authentication(let m): "authentication failed: \(m); check the provider's API key"
        case .invalidRequest(let m): "invalid request: \(m)"
        case .unknownModel(let m): "unknown model: \(m)"
        case .contentPolicy(let m): "refused by content policy: \(m)"
        case .contextLengthExceeded(let limit, let requested):
            "context length exceeded: \(requested) tokens requested, the provider takes \(limit)"
        case .malformedResponse(let m): "malformed response: \(m)"
        case .budgetExceeded(let m): "budget exceeded: \(m)"
        case .unavailable(let m): "provider unavailable: \(m)"
        case .tokenTimeout(let t): "no new token for \(t); the stream was cut off"
        case .callTimeout(let t): "the call took longer than its whole-request deadline of \(t)"
        case .responseTooLarge(let what, let limit): "\(what) exceeds \(limit) bytes once decoded; reading stopped there"
        case .cancelled: "cancelled"
        }
    }
}

/// Why a provider was not considered for a request.
public struct Ineligibility: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable {
        case privacy = "request is private and the provider is off-device"
        case contextTooSmall = "prompt does not fit the provider's context"
        case noImageSupport = "provider cannot take images"
        case noStructuredOutput = "provider cannot produce structured output"
        case excluded = "excluded by the request"
        case unavailable = "provider is unavailable"
        case circuitOpen = "provider's circuit breaker is open"
        case deviceState = "device state does not allow it"
    }
    public var provider: ProviderID
    public var reason: Reason
    public init(provider: ProviderID, reason: Reason) { self.provider = provider; self.reason = reason }
    public var description: String { "\(provider): \(reason.rawValue)" }
}

/// One failed provider call, kept for the final error.
public struct AttemptFailure: Sendable, Hashable, CustomStringConvertible {
    public var provider: ProviderID
    public var error: ProviderError
    public init(provider: ProviderID, error: ProviderError) { self.provider = provider; self.error = error }
    public var description: String { "\(provider): \(error)" }
}

/// Why a request failed, as the app sees it.
public enum SwitchboardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No registered provider may take this request; each reason says why.
    case noEligibleProvider([Ineligibility])
    /// The provider's wait queue is full.
    case overloaded(ProviderID)
    /// Waited for a slot longer than the queue timeout.
    case queueTimeout(ProviderID)
    /// The latency budget ran out.
    case deadlineExceeded
    /// Every eligible provider was tried (or a final error stopped the chain).
    case allProvidersFailed([AttemptFailure])
    /// Failed after tokens had reached the caller, so no retry was possible.
    case failedMidStream(AttemptFailure)
    case cancelled
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .noEligibleProvider(let reasons):
            "no eligible provider: " + (reasons.isEmpty ? "none registered" : reasons.map(\.description).joined(separator: "; "))
        case .overloaded(let p): "\(p) is overloaded: its queue is full; retry later or lower concurrency"
        case .queueTimeout(let p): "timed out waiting for a slot on \(p)"
        case .deadlineExceeded: "the request's latency budget ran out"
        case .allProvidersFailed(let attempts):
            "all providers failed: " + attempts.map(\.description).joined(separator: "; ")
        case .failedMidStream(let failure): "failed after streaming began: \(failure)"
        case .cancelled: "the request was cancelled"
        case .invalidRequest(let m): "invalid request: \(m)"
        }
    }
}
