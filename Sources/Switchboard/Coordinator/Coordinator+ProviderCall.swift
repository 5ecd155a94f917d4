import Dispatch
import SwitchboardCore
import Synchronization

/// Delivers a streamed request's events; `respond(to:)` has none, so it builds no stream at all.
/// A class: the continuation's layout is opaque outside the concurrency library, so an optional
/// struct holding it is tested for nil through a runtime call at every use on the hot path.
final class EventSink: Sendable {
    let continuation: AsyncStream<SwitchboardEvent>.Continuation
    init(continuation: AsyncStream<SwitchboardEvent>.Continuation) { self.continuation = continuation }
    func yield(_ event: SwitchboardEvent) { continuation.yield(event) }
}

extension Coordinator {
    /// Calls `provider` once and drains its stream, within `deadline` if there is one.
    /// `started`: the clock time the call began, when the caller has just read it.
    /// `timerClock`: where the deadline's timer sleeps (see `AttemptRun.timerClock`); nil for real time.
    nonisolated(nonsending) func callProvider(_ provider: any Provider, _ providerRequest: ProviderRequest, deadline: Duration?,
                                              timerClock: ClockSource? = nil, events: EventSink?,
                                              started: Duration? = nil) async -> CallReport {
        let started = started ?? clock.now()
        let stream = await provider.generate(providerRequest)
        let maxTokens = providerRequest.request.maxTokens
        // An answer already in hand needs no timer: nothing is left to wait for.
        guard let deadline, stream.readyEvents == nil else {
            return await Self.consume(stream, clock: clock, maxTokens: maxTokens, events: events, started: started)
        }
        let clock = clock
        let remaining = deadline - clock.now()
        guard let timer = timerClock else {
            // The default deadline, on real time: a dispatch timer cancels the call's task.
            let call = Task { await Self.consume(stream, clock: clock, maxTokens: maxTokens, events: events, started: started) }
            let alarm = DeadlineAlarm(after: remaining) { call.cancel() }
            var result = await withTaskCancellationHandler { await call.value } onCancel: { call.cancel() }
            alarm.cancel()
            if alarm.fired, case .failure = result.result, !Task.isCancelled { result.result = .failure(.timeout) }
            return result
        }
        // Only streams still to come pay for the timer task.
        return await withTaskGroup(of: CallReport?.self) { group in
            group.addTask { await Self.consume(stream, clock: clock, maxTokens: maxTokens, events: events, started: started) }
            group.addTask { try? await timer.sleep(for: remaining); return nil }
            var outcome: CallReport?
            var timedOut = false
            while let next = await group.next() {
                if let finished = next {
                    outcome = finished
                } else if outcome == nil {
                    timedOut = true
                }
                group.cancelAll()
            }
            var result = outcome ?? CallReport(result: .failure(.cancelled), now: clock.now())
            if timedOut, case .failure = result.result, !Task.isCancelled { result.result = .failure(.timeout) }
            return result
        }
    }

    /// Drains a provider stream on the caller's executor (no hop per token).
    /// With `race`, this call is one side of a hedge: its first token (or an empty answer's finish)
    /// must claim the race before anything reaches the caller; a call that loses stops at once.
    nonisolated(nonsending) static func consume(_ stream: ProviderEventStream,
                                                clock: ClockSource, maxTokens: Int,
                                                events: EventSink?, race: RaceLane? = nil, started: Duration? = nil) async -> CallReport {
        var call = CallConsumer(clock: clock, maxTokens: maxTokens, events: events, race: race, started: started)
        // An answer already in hand is read in a plain loop: no async step, frame or copy per event.
        // Its events all arrived when the provider returned: one clock read stands for all of them.
        if let ready = stream.readyEvents {
            call.arrived = clock.now()
            for event in ready.events where call.take(event) { return call.outcome }
            return call.ended(by: ready.ending)
        }
        do {
            for try await event in stream where call.take(event) { return call.outcome }
            return call.ended(by: nil)
        } catch {
            return call.ended(by: ProviderError(error))
        }
    }
}

/// One call's events folded into its `CallReport`, shared by the ready-answer loop and the stream.
struct CallConsumer {
    let clock: ClockSource
    let events: EventSink?
    let race: RaceLane?
    /// A provider that never stops is cut off: the buffer and the caller's stream stay bounded.
    let tokenCap: Int
    var outcome: CallReport
    /// When every event arrived at once (an answer in hand): the time of all of them.
    var arrived: Duration?

    init(clock: ClockSource, maxTokens: Int, events: EventSink?, race: RaceLane?, started: Duration? = nil) {
        self.clock = clock; self.events = events; self.race = race
        tokenCap = Swift.max(maxTokens, 0).saturatingMultiply(8).saturatingAdd(64)
        let started = started ?? clock.now()
        outcome = CallReport(result: .failure(.cancelled), started: started, now: started)
    }

    private func now() -> Duration { arrived ?? clock.now() }

    /// Takes one event; true when the call is over (`outcome` is final).
    mutating func take(_ event: ProviderEvent) -> Bool {
        switch event {
        case .token(let piece):
            if outcome.tokens == 0 {
                if let race, !race.claim() { return end(.failure(.cancelled)) }
                outcome.firstTokenAt = now()
            }
            outcome.tokens += 1
            outcome.text += piece
            events?.yield(.token(piece))
            if outcome.tokens > tokenCap { return end(.failure(.malformedResponse("the provider sent far more than maxTokens"))) }
            return false
        case .toolCall(let call):
            outcome.toolCalls.append(call)
            if outcome.toolCalls.count > 256 { return end(.failure(.malformedResponse("the provider sent more than 256 tool calls"))) }
            return false
        case .finished(let reason, let usage):
            if outcome.tokens == 0, let race, !race.claim() { return end(.failure(.cancelled)) }
            for call in outcome.toolCalls { events?.yield(.toolCall(call)) }
            outcome.usage = usage
            return end(.success(reason))
        }
    }

    /// The outcome of a stream that ended without a finish event: by `error`, or by just stopping.
    mutating func ended(by error: ProviderError?) -> CallReport {
        let reason = error ?? .malformedResponse("the stream ended without a finish event")
        _ = end(.failure(Task.isCancelled ? .cancelled : reason))
        return outcome
    }

    private mutating func end(_ result: Result<FinishReason, ProviderError>) -> Bool {
        outcome.result = result
        outcome.now = now()
        return true
    }
}

/// Runs an action once after a delay of real time, unless cancelled first: the default deadline's
/// timer. A dispatch timer, not a sleeping task: on Linux a cancelled `Task.sleep` stays queued (with
/// its allocation) until its deadline, so one per call with a deadline of minutes held memory in
/// proportion to the request rate (the soak grew 117 % over a million requests). Cancelling a dispatch
/// timer frees it at once.
final class DeadlineAlarm: @unchecked Sendable {
    // A dispatch source is thread-safe; `@unchecked` because the protocol is not marked Sendable.
    private let source: any DispatchSourceTimer
    private let rang = Flag()

    private final class Flag: Sendable { let value = Atomic<Bool>(false) }

    init(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        // Clamped to a year (a budget may be any Duration): the conversion cannot overflow.
        let milliseconds = Int(min(max(delay.seconds * 1000, 0), 365 * 86_400 * 1000))
        source.schedule(deadline: .now() + .milliseconds(milliseconds))
        source.setEventHandler { [rang] in
            rang.value.store(true, ordering: .releasing)
            action()
        }
        source.activate()
    }

    /// Whether the deadline came before `cancel()`.
    var fired: Bool { rang.value.load(ordering: .acquiring) }

    func cancel() { source.cancel() }
}
