import Foundation
import SwitchboardCore

/// What every remote provider shares: its advertised capabilities, timeouts, budget and bookkeeping.
public struct RemoteProviderSettings: Sendable {
    public var maxContextTokens: Int
    public var supportsImages: Bool
    public var supportsStructuredOutput: Bool
    /// Advertise native tool calling (`GenerationRequest.tools`); turn off for a server that rejects `tools`.
    public var supportsToolCalling: Bool
    /// Bytes of tool-call arguments one reply may carry, over all its calls (streamed fragments are
    /// assembled up to this): `ProviderError.responseTooLarge` past it.
    public var maxToolArgumentBytes: Int
    /// Price of the configured model (see `PriceTable` for per-model lookups).
    public var pricing: TokenPricing
    public var expectedTimeToFirstToken: Duration
    public var expectedTokensPerSecond: Double
    /// Stream tokens over SSE (true) or wait for the whole reply.
    public var streaming: Bool
    /// Until the response head arrives (non-streaming: until the whole reply); capped by the request's
    /// remaining latency budget.
    public var requestTimeout: Duration
    /// Longest silence inside a streaming body before `ProviderError.timeout`.
    public var idleTimeout: Duration
    /// Longest wait for the next token once a streaming body has begun, however many bytes come
    /// meanwhile (keep-alive comments, empty deltas, one endless line): `ProviderError.tokenTimeout`.
    public var tokenTimeout: Duration
    /// The longest whole call, head and body, streaming or not: `ProviderError.callTimeout`. Each call's
    /// own deadline is shorter when its `maxTokens` allows (see `callDeadline(maxTokens:)`). (The
    /// request's latency budget is the coordinator's deadline, enforced there.)
    public var totalTimeout: Duration
    /// The slowest output worth waiting for: a call gets `deadlineAllowance` plus `maxTokens` at this
    /// rate, so a server trickling one real token every few seconds cannot hold a request for minutes.
    public var minimumTokensPerSecond: Double
    /// The part of a call's deadline not scaled by `maxTokens`: connecting, the prompt's evaluation,
    /// the first token.
    public var deadlineAllowance: Duration
    /// Decoded (decompressed) bytes one response may carry: `ProviderError.responseTooLarge` past it.
    public var maxResponseBytes: Int
    /// Decoded bytes one event-stream line, or one event's joined data, may carry.
    public var maxLineBytes: Int
    /// Total spending allowed for this provider in US dollars; nil is unlimited.
    public var budgetUSD: Double?
    /// Where usage, cost and per-call records go; share one ledger between providers to see totals together.
    public var ledger: UsageLedger
    /// Where key use is recorded (never key material).
    public var audit: KeyAuditLog?
    /// Receives one line per call and per failure; lines never contain keys or prompt text.
    public var log: (@Sendable (String) -> Void)?
    /// Server error messages are cut to this many characters.
    public var maxErrorMessageLength: Int
    /// Wall-clock "now" for `Retry-After` dates.
    public var now: @Sendable () -> Date
    /// Measures `tokenTimeout` and `totalTimeout` (real time for the system clocks).
    let clock: ClockSource
    let timers: TimeoutScheduler

    public init(maxContextTokens: Int = 8192, supportsImages: Bool = false, supportsStructuredOutput: Bool = false,
                pricing: TokenPricing = .free, expectedTimeToFirstToken: Duration = .milliseconds(600),
                expectedTokensPerSecond: Double = 60, streaming: Bool = true, requestTimeout: Duration = .seconds(60),
                idleTimeout: Duration = .seconds(60), budgetUSD: Double? = nil, ledger: UsageLedger = UsageLedger(),
                audit: KeyAuditLog? = nil, log: (@Sendable (String) -> Void)? = nil, maxErrorMessageLength: Int = 300,
                now: @escaping @Sendable () -> Date = { Date() }, tokenTimeout: Duration = .seconds(60),
                totalTimeout: Duration = .seconds(600), maxResponseBytes: Int = 32 << 20, maxLineBytes: Int = 1 << 20,
                clock: some Clock<Duration> = ContinuousClock(), supportsToolCalling: Bool = true,
                maxToolArgumentBytes: Int = 1 << 20, minimumTokensPerSecond: Double = 5,
                deadlineAllowance: Duration = .seconds(15)) {
        self.maxContextTokens = maxContextTokens; self.supportsImages = supportsImages
        self.supportsStructuredOutput = supportsStructuredOutput; self.pricing = pricing
        self.expectedTimeToFirstToken = expectedTimeToFirstToken; self.expectedTokensPerSecond = expectedTokensPerSecond
        self.streaming = streaming; self.requestTimeout = requestTimeout; self.idleTimeout = idleTimeout
        self.budgetUSD = budgetUSD; self.ledger = ledger; self.audit = audit; self.log = log
        self.maxErrorMessageLength = maxErrorMessageLength; self.now = now
        self.tokenTimeout = tokenTimeout; self.totalTimeout = totalTimeout
        self.maxResponseBytes = max(1, maxResponseBytes); self.maxLineBytes = max(1, maxLineBytes)
        self.clock = ClockSource(clock); timers = .forClock(clock)
        self.supportsToolCalling = supportsToolCalling; self.maxToolArgumentBytes = max(1, maxToolArgumentBytes)
        self.minimumTokensPerSecond = minimumTokensPerSecond.isFinite && minimumTokensPerSecond > 0 ? minimumTokensPerSecond : 5
        self.deadlineAllowance = max(.zero, deadlineAllowance)
    }

    /// The whole-call deadline for a request of `maxTokens`: `deadlineAllowance + maxTokens /
    /// minimumTokensPerSecond`, at most `totalTimeout`. With the defaults, 48 tokens get 24.6 s,
    /// 256 tokens 66 s, and 2,925 tokens or more the 600 s cap.
    public func callDeadline(maxTokens: Int) -> Duration {
        let rate = minimumTokensPerSecond > 0 ? minimumTokensPerSecond : 5  // a NaN or negative rate set later
        let seconds = Double(max(0, maxTokens)) / rate
        // Compared as seconds first: a huge `maxTokens` must not build an unrepresentable Duration.
        guard seconds.isFinite, seconds < 1e9 else { return totalTimeout }
        return min(totalTimeout, deadlineAllowance + .milliseconds(Int64(seconds * 1000)))
    }

    /// Always off-device: remote providers never see private requests.
    public var capabilities: ProviderCapabilities {
        ProviderCapabilities(isOnDevice: false, maxContextTokens: maxContextTokens, supportsImages: supportsImages,
                             supportsStructuredOutput: supportsStructuredOutput, pricing: pricing,
                             supportsToolCalling: supportsToolCalling,
                             expectedTimeToFirstToken: expectedTimeToFirstToken,
                             expectedTokensPerSecond: expectedTokensPerSecond)
    }
}
