import SwitchboardCore

/// A provider that answers from a script: fixed tokens, an echo of the prompt, or a function of the
/// request; with optional pacing on an injected clock and faults by call index or seeded rate. It
/// counts calls and records what it received, so tests can assert what reached it.
public actor ScriptedProvider: Provider {
    /// What the provider says.
    public enum Output: Sendable {
        case tokens([String])
        /// The prompt (or else the last message) back, word by word.
        case echo
        case custom(@Sendable (ProviderRequest) -> [String])
        /// Text and native tool calls, a function of the request (give it `supportsToolCalling`).
        case turn(@Sendable (ProviderRequest) -> ScriptedTurn)
    }

    public nonisolated let id: ProviderID
    public nonisolated let capabilities: ProviderCapabilities
    // The actor serializes every access to its state; the runtime's per-access exclusivity checks
    // (eight per call) made this instant provider a visible part of `route`'s overhead.
    @exclusivity(unchecked) public var output: Output
    /// Delay before the first token, on the injected clock.
    @exclusivity(unchecked) public var timeToFirstToken: Duration
    /// Delay between tokens, on the injected clock.
    @exclusivity(unchecked) public var tokenInterval: Duration
    @exclusivity(unchecked) public var faults: FaultInjector
    /// A fault for every call, over `faults`.
    @exclusivity(unchecked) public var persistentFault: Fault?
    @exclusivity(unchecked) public var recordsRequests: Bool
    private var currentAvailability: ProviderAvailability
    private let clock: ClockSource

    /// Calls of `generate` so far.
    @exclusivity(unchecked) public private(set) var callCount = 0
    /// Streams started and not yet ended.
    public private(set) var activeStreams = 0
    /// Every request received, in order (when `recordsRequests`).
    @exclusivity(unchecked) public private(set) var receivedRequests: [ProviderRequest] = []
    private var hanging: [Int: AsyncThrowingStream<ProviderEvent, any Error>.Continuation] = [:]

    public init(id: ProviderID, capabilities: ProviderCapabilities = ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192),
                output: Output = .tokens(["Hello", ",", " world"]), timeToFirstToken: Duration = .zero,
                tokenInterval: Duration = .zero, faults: FaultInjector = FaultInjector(), persistentFault: Fault? = nil,
                availability: ProviderAvailability = .ready, recordsRequests: Bool = true,
                clock: some Clock<Duration> = ContinuousClock()) {
        self.id = id; self.capabilities = capabilities; self.output = output
        self.timeToFirstToken = timeToFirstToken; self.tokenInterval = tokenInterval; self.faults = faults
        self.persistentFault = persistentFault; self.currentAvailability = availability
        self.recordsRequests = recordsRequests; self.clock = ClockSource(clock)
    }

    public func availability() -> ProviderAvailability { currentAvailability }
    public func setAvailability(_ availability: ProviderAvailability) { currentAvailability = availability }
    public func setPersistentFault(_ fault: Fault?) { persistentFault = fault }
    public func setOutput(_ output: Output) { self.output = output }
    public func setFaults(_ faults: FaultInjector) { self.faults = faults }
    public func setPacing(timeToFirstToken: Duration, tokenInterval: Duration) {
        self.timeToFirstToken = timeToFirstToken; self.tokenInterval = tokenInterval
    }

    public func generate(_ request: ProviderRequest) -> ProviderEventStream {
        callCount += 1
        if recordsRequests { receivedRequests.append(request) }
        let fault = persistentFault ?? faults.fault(for: id, call: callCount)
        let all = tokens(for: request)
        let calls: [ToolCall] = if case .turn(let make) = output { make(request).toolCalls } else { [] }
        let limit = max(0, request.request.maxTokens)
        let tokens = all.count <= limit ? all : Array(all.prefix(limit))
        let finish = ProviderEvent.finished(all.count > limit ? .length : calls.isEmpty ? .stop : .toolCalls,
                                            TokenUsage(promptTokens: request.analysis.estimatedPromptTokens,
                                                       completionTokens: tokens.count))
        if timeToFirstToken <= .zero && tokenInterval <= .zero && fault != .hang {
            // Instant: the whole answer is ready before the caller iterates; no task, no buffer.
            return Self.instant(tokens, toolCalls: calls, finish: finish, fault: fault)
        }
        let (stream, continuation) = AsyncThrowingStream<ProviderEvent, any Error>.makeStream()
        activeStreams += 1
        let call = callCount
        if fault == .hang {
            hanging[call] = continuation
            continuation.onTermination = { _ in Task { await self.streamEnded(call) } }
            return ProviderEventStream(stream)
        }
        let clock = clock, ttft = timeToFirstToken, interval = tokenInterval
        let task = Task {
            do {
                try await clock.sleep(for: ttft)
                for (index, token) in tokens.enumerated() {
                    if index > 0 { try await clock.sleep(for: interval) }
                    if case .failAfterTokens(let n, let error) = fault, index >= n { throw error }
                    if case .error(let error) = fault { throw error }
                    continuation.yield(.token(token))
                }
                for call in calls where fault == nil || fault == .hang { continuation.yield(.toolCall(call)) }
                Self.play([], finish: finish, fault: fault, tokensSoFar: tokens.count, into: continuation)
            } catch {
                continuation.finish(throwing: error is CancellationError ? ProviderError.cancelled : error)
            }
            self.streamEnded(nil)
        }
        continuation.onTermination = { _ in task.cancel() }
        return ProviderEventStream(stream)
    }

    /// The script as ready events: what `play` yields, without a stream (one array: the route
    /// benchmark's instant providers should cost as little as a real answer in hand).
    private static func instant(_ tokens: [String], toolCalls: [ToolCall], finish: ProviderEvent, fault: Fault?) -> ProviderEventStream {
        switch fault {
        case .error(let error)?: return .failing(error)
        case .failAfterTokens(let n, let error)?: return ProviderEventStream(events: tokens.prefix(max(0, n)).map(ProviderEvent.token),
                                                                             thenFailing: error)
        case .truncate?: return ProviderEventStream(events: tokens.map(ProviderEvent.token))
        case .hang?, nil:
            var events: [ProviderEvent] = []
            events.reserveCapacity(tokens.count + toolCalls.count + 1)
            for token in tokens { events.append(.token(token)) }
            for call in toolCalls { events.append(.toolCall(call)) }
            events.append(finish)
            return ProviderEventStream(events: events)
        }
    }

    private func streamEnded(_ hangingCall: Int?) {
        if let hangingCall { hanging.removeValue(forKey: hangingCall) }
        activeStreams -= 1
    }

    private static func play(_ tokens: [String], finish: ProviderEvent, fault: Fault?, tokensSoFar: Int = 0,
                             into continuation: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) {
        switch fault {
        case .error(let error)?:
            continuation.finish(throwing: error); return
        case .failAfterTokens(let n, let error)?:
            for token in tokens.prefix(max(0, n - tokensSoFar)) { continuation.yield(.token(token)) }
            continuation.finish(throwing: error); return
        case .truncate?:
            for token in tokens { continuation.yield(.token(token)) }
            continuation.finish(); return
        case .hang?, nil:
            for token in tokens { continuation.yield(.token(token)) }
            continuation.yield(finish)
            continuation.finish()
        }
    }

    private func tokens(for request: ProviderRequest) -> [String] {
        switch output {
        case .tokens(let tokens): return Self.continuing(tokens, after: request.request.answerPrefix)
        case .custom(let make): return make(request)
        case .turn(let make): return make(request).tokens
        case .echo:
            let text = request.request.prompt ?? request.request.messages.last?.content ?? ""
            var tokens: [String] = []
            for (index, word) in text.split(separator: " ", omittingEmptySubsequences: true).enumerated() {
                tokens.append(index == 0 ? String(word) : " " + word)
            }
            return tokens
        }
    }

    /// A resumed request carries the answer so far: a script that starts with exactly that text goes on
    /// from there, as a model continuing its own answer would; any other script is played whole.
    static func continuing(_ tokens: [String], after prefix: String?) -> [String] {
        guard let prefix, !prefix.isEmpty else { return tokens }
        var joined = ""
        for (index, token) in tokens.enumerated() {
            joined += token
            if joined == prefix { return Array(tokens[(index + 1)...]) }
            if !prefix.hasPrefix(joined) { break }
        }
        return tokens
    }
}

/// What a scripted native tool-calling model says: text, then its calls.
public struct ScriptedTurn: Sendable {
    public var tokens: [String]
    public var toolCalls: [ToolCall]
    public init(tokens: [String] = [], toolCalls: [ToolCall] = []) { self.tokens = tokens; self.toolCalls = toolCalls }
}
