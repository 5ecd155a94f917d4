import SwitchboardCore

/// Delivers a streamed request's events; `respond(to:)` has none, so it builds no stream at all.
struct EventSink: Sendable {
    let continuation: AsyncStream<SwitchboardEvent>.Continuation
    func yield(_ event: SwitchboardEvent) { continuation.yield(event) }
}

/// How one provider call went.
struct CallOutcome: Sendable {
    var result: Result<Finish, ProviderError> = .failure(.cancelled)
    var text = ""
    var tokens = 0
    /// The model's tool calls; yielded as events only when the call finishes (a failed call's are dropped).
    var toolCalls: [ToolCall] = []
    var started: Duration
    /// Clock time of the first token, if any.
    var firstTokenAt: Duration?
    var ended: Duration

    struct Finish: Sendable { var reason: FinishReason; var usage: TokenUsage? }

    var error: ProviderError? { if case .failure(let e) = result { e } else { nil } }

    func ending(_ result: Result<Finish, ProviderError>, at time: Duration) -> CallOutcome {
        var outcome = self
        outcome.result = result
        outcome.ended = time
        return outcome
    }
    var duration: Duration { ended - started }
    var timeToFirstToken: Duration? { firstTokenAt.map { $0 - started } }
}

extension Coordinator {
    /// Calls `provider` once and drains its stream, within `deadline` if there is one.
    nonisolated func callProvider(_ provider: any Provider, _ providerRequest: ProviderRequest, deadline: Duration?,
                      events: EventSink?) async -> CallOutcome {
        let stream = await provider.generate(providerRequest)
        let maxTokens = providerRequest.request.maxTokens
        guard let deadline else {
            return await Self.consume(stream, clock: clock, maxTokens: maxTokens, events: events)
        }
        let clock = clock
        let remaining = deadline - clock.now()
        // Only budgeted requests pay for the timer task.
        return await withTaskGroup(of: CallOutcome?.self) { group in
            group.addTask { await Self.consume(stream, clock: clock, maxTokens: maxTokens, events: events) }
            group.addTask { try? await clock.sleep(for: remaining); return nil }
            var outcome: CallOutcome?
            var timedOut = false
            while let next = await group.next() {
                if let finished = next {
                    outcome = finished
                } else if outcome == nil {
                    timedOut = true
                }
                group.cancelAll()
            }
            var result = outcome ?? CallOutcome(started: clock.now(), ended: clock.now())
            if timedOut, case .failure = result.result, !Task.isCancelled { result.result = .failure(.timeout) }
            return result
        }
    }

    /// Drains a provider stream on the caller's executor (no hop per token).
    /// With `race`, this call is one side of a hedge: its first token (or an empty answer's finish)
    /// must claim the race before anything reaches the caller; a call that loses stops at once.
    nonisolated(nonsending) static func consume(_ stream: ProviderEventStream,
                                                clock: ClockSource, maxTokens: Int,
                                                events: EventSink?, race: RaceLane? = nil) async -> CallOutcome {
        let started = clock.now()
        var outcome = CallOutcome(started: started, ended: started)
        // A provider that never stops is cut off: the buffer and the caller's stream stay bounded.
        let tokenCap = Swift.max(maxTokens, 0).saturatingMultiply(8).saturatingAdd(64)
        do {
            for try await event in stream {
                switch event {
                case .token(let piece):
                    if outcome.tokens == 0 {
                        if let race, !race.claim() { return outcome.ending(.failure(.cancelled), at: clock.now()) }
                        outcome.firstTokenAt = clock.now()
                    }
                    outcome.tokens += 1
                    outcome.text += piece
                    events?.yield(.token(piece))
                    if outcome.tokens > tokenCap {
                        outcome.result = .failure(.malformedResponse("the provider sent far more than maxTokens"))
                        outcome.ended = clock.now()
                        return outcome
                    }
                case .toolCall(let call):
                    outcome.toolCalls.append(call)
                    if outcome.toolCalls.count > 256 {
                        outcome.result = .failure(.malformedResponse("the provider sent more than 256 tool calls"))
                        outcome.ended = clock.now()
                        return outcome
                    }
                case .finished(let reason, let usage):
                    if outcome.tokens == 0, let race, !race.claim() { return outcome.ending(.failure(.cancelled), at: clock.now()) }
                    for call in outcome.toolCalls { events?.yield(.toolCall(call)) }
                    outcome.result = .success(CallOutcome.Finish(reason: reason, usage: usage))
                    outcome.ended = clock.now()
                    return outcome
                }
            }
            outcome.result = .failure(Task.isCancelled ? .cancelled
                                      : .malformedResponse("the stream ended without a finish event"))
        } catch {
            outcome.result = .failure(Task.isCancelled ? .cancelled : ProviderError(error))
        }
        outcome.ended = clock.now()
        return outcome
    }
}
