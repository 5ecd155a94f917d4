import Testing
@testable import SwitchboardCore

/// The decisions the coordinator's driver used to make itself, now inputs and actions of the state
/// machine: the privacy check at dispatch, breaker admission and a probe's release, a provider's
/// cool-down, the hedged call strategy, the response. No tasks: time is an argument.
@Suite("Attempt state machine: dispatch decisions")
struct AttemptDispatchTests {
    static let remote = AttemptStateMachine.Candidate(id: "remote", isOnDevice: false, maxContextTokens: 128_000)
    static let second = AttemptStateMachine.Candidate(id: "second", isOnDevice: false, maxContextTokens: 128_000)
    static let local = AttemptStateMachine.Candidate(id: "local", isOnDevice: true, maxContextTokens: 8192)

    static func machine(_ candidates: [AttemptStateMachine.Candidate], level: PrivacyLevel = .public,
                        retry: RetryPolicy = RetryPolicy(maxAttemptsPerProvider: 1), streaming: Bool = false,
                        start: Duration = .zero, hedging: Bool = false) -> AttemptStateMachine {
        AttemptStateMachine(candidates: candidates, level: level, retry: retry, privacy: PrivacyPolicy(),
                            streaming: streaming, maxResumes: 2, deadline: nil, start: start, hedging: hedging)
    }

    var budget = RetryBudget(ratio: 1, minimumRetries: 10)
    var random = SeededRandom(seed: 3)

    /// Walks one candidate from `.check` to its `.call` with the answers a healthy registry gives.
    static func dispatch(_ machine: inout AttemptStateMachine, _ action: AttemptStateMachine.Action,
                         isOnDevice: Bool) -> AttemptStateMachine.CallPlan? {
        guard case .check = action,
              case .admit = machine.located(at: isOnDevice ? .device : .thirdPartyCloud, cancelled: false, now: .zero),
              case .acquire = machine.breakerAnswered(.allowed, now: .zero),
              case .call(let plan) = machine.admitted(queueWait: .zero) else { return nil }
        return plan
    }

    @Test("A personal request whose remote-ranked provider is re-registered as remote is skipped at dispatch")
    func privacyAtDispatch() {
        // Ranked as on-device, but the registry now holds a remote provider under the same id.
        let ranked = AttemptStateMachine.Candidate(id: "swapped", isOnDevice: true, maxContextTokens: 8192)
        var machine = Self.machine([ranked, Self.local], level: .personal)
        guard case .check("swapped") = machine.start(now: .zero) else { Issue.record("no check"); return }
        let next = machine.located(at: .thirdPartyCloud, cancelled: false, now: .zero)
        guard case .check("local") = next else { Issue.record("expected the next candidate, got \(next)"); return }
        #expect(machine.skipped == [Ineligibility(provider: "swapped", reason: .privacy)])
        // The same provider still on the device passes.
        var fine = Self.machine([ranked], level: .personal)
        _ = fine.start(now: .zero)
        guard case .admit("swapped") = fine.located(at: .device, cancelled: false, now: .zero) else {
            Issue.record("an on-device provider was refused"); return
        }
    }

    @Test("A provider gone from the registry is skipped as unavailable; a cancelled caller ends the request")
    func locateOutcomes() {
        var machine = Self.machine([Self.remote, Self.local])
        _ = machine.start(now: .zero)
        guard case .check("local") = machine.located(at: nil, cancelled: false, now: .zero) else {
            Issue.record("not moved on"); return
        }
        #expect(machine.skipped == [Ineligibility(provider: "remote", reason: .unavailable)])
        guard case .finish(.failure(.cancelled)) = machine.located(at: .device, cancelled: true, now: .zero) else {
            Issue.record("cancellation not honoured"); return
        }
    }

    @Test("An open breaker skips the provider; an exhausted list reports every open circuit")
    func breakerRejects() {
        var machine = Self.machine([Self.remote, Self.local])
        _ = machine.start(now: .zero)
        _ = machine.located(at: .thirdPartyCloud, cancelled: false, now: .zero)
        guard case .check("local") = machine.breakerAnswered(.rejected, now: .zero) else { Issue.record("not moved on"); return }
        _ = machine.located(at: .device, cancelled: false, now: .zero)
        let end = machine.breakerAnswered(.rejected, now: .zero)
        guard case .finish(.failure(.noEligibleProvider(let out))) = end else { Issue.record("expected no provider, got \(end)"); return }
        #expect(out == [Ineligibility(provider: "remote", reason: .circuitOpen), Ineligibility(provider: "local", reason: .circuitOpen)])
    }

    @Test("A half-open probe that gets no slot is given back to its breaker before the next candidate")
    func probeReleasedWithoutSlot() {
        var machine = Self.machine([Self.remote, Self.local])
        _ = machine.start(now: .zero)
        _ = machine.located(at: .thirdPartyCloud, cancelled: false, now: .zero)
        guard case .acquire("remote") = machine.breakerAnswered(.probe, now: .zero) else { Issue.record("no slot asked"); return }
        let update = machine.slotUnavailable(.overloaded("remote"), now: .zero)
        guard case .updateBreaker("remote", .probeAbandoned) = update else { Issue.record("probe kept: \(update)"); return }
        guard case .check("local") = machine.breakerUpdated() else { Issue.record("not moved on"); return }
        // An allowed admission holds no probe: a full queue moves on directly.
        var plain = Self.machine([Self.remote, Self.local])
        _ = plain.start(now: .zero)
        _ = plain.located(at: .thirdPartyCloud, cancelled: false, now: .zero)
        _ = plain.breakerAnswered(.allowed, now: .zero)
        guard case .check("local") = plain.slotUnavailable(.overloaded("remote"), now: .zero) else { Issue.record("extra step"); return }
        // Cancelled while waiting with a probe: the probe is still given back, then the request ends.
        var waiting = Self.machine([Self.remote])
        _ = waiting.start(now: .zero)
        _ = waiting.located(at: .thirdPartyCloud, cancelled: false, now: .zero)
        _ = waiting.breakerAnswered(.probe, now: .zero)
        guard case .updateBreaker(_, .probeAbandoned) = waiting.slotUnavailable(.cancelled, now: .zero),
              case .finish(.failure(.cancelled)) = waiting.breakerUpdated() else { Issue.record("probe or cancel lost"); return }
    }

    @Test("A Retry-After past the retry policy's limit cools the provider down, then the request falls back")
    mutating func cooldown() {
        var machine = Self.machine([Self.remote, Self.local], retry: RetryPolicy(maxAttemptsPerProvider: 2, maxRetryAfterWait: .seconds(5)))
        let plan = Self.dispatch(&machine, machine.start(now: .zero), isOnDevice: false)
        #expect(plan?.provider == "remote")
        let now = Duration.seconds(7)
        let next = machine.callFinished(.init(result: .failure(.rateLimited(retryAfter: .seconds(120))), now: now),
                                        budget: &budget, random: &random)
        guard case .updateBreaker("remote", .coolDown(let until)) = next else { Issue.record("no cool-down: \(next)"); return }
        #expect(until == now + .seconds(120))
        guard case .check("local") = machine.breakerUpdated() else { Issue.record("no fallback after the cool-down"); return }
        // A short Retry-After is waited out on the same provider: no cool-down.
        var short = Self.machine([Self.remote, Self.local], retry: RetryPolicy(maxAttemptsPerProvider: 2, maxRetryAfterWait: .seconds(5)))
        _ = Self.dispatch(&short, short.start(now: .zero), isOnDevice: false)
        let retry = short.callFinished(.init(result: .failure(.rateLimited(retryAfter: .seconds(1))), now: now),
                                       budget: &budget, random: &random)
        guard case .retry(let delay) = retry else { Issue.record("expected a retry, got \(retry)"); return }
        #expect(delay >= .seconds(1))
    }

    @Test("A failure seen after the caller cancelled ends the request, still cooling the provider down")
    mutating func callerCancelled() {
        var machine = Self.machine([Self.remote, Self.local])
        _ = Self.dispatch(&machine, machine.start(now: .zero), isOnDevice: false)
        var report = AttemptStateMachine.CallReport(result: .failure(.rateLimited(retryAfter: .seconds(600))), now: .seconds(1))
        report.callerCancelled = true
        guard case .updateBreaker("remote", .coolDown) = machine.callFinished(report, budget: &budget, random: &random),
              case .finish(.failure(.cancelled)) = machine.breakerUpdated() else { Issue.record("not cancelled after cooling"); return }
        var plain = Self.machine([Self.remote, Self.local])
        _ = Self.dispatch(&plain, plain.start(now: .zero), isOnDevice: false)
        var timeout = AttemptStateMachine.CallReport(result: .failure(.timeout), now: .seconds(1))
        timeout.callerCancelled = true
        guard case .finish(.failure(.cancelled)) = plain.callFinished(timeout, budget: &budget, random: &random) else {
            Issue.record("a cancelled caller's failure fell back"); return
        }
    }

    @Test("Hedging is a call strategy: chosen with another eligible candidate, never one privacy rules out")
    func hedgeStrategy() {
        var hedged = Self.machine([Self.remote, Self.second, Self.local], hedging: true)
        #expect(Self.dispatch(&hedged, hedged.start(now: .zero), isOnDevice: false)?.strategy == .hedged(by: Self.second))
        var plain = Self.machine([Self.remote, Self.second])
        #expect(Self.dispatch(&plain, plain.start(now: .zero), isOnDevice: false)?.strategy == .single)
        // Personal: the only other candidates are remote, so the on-device call runs alone.
        var personal = Self.machine([Self.local, Self.remote], level: .personal, hedging: true)
        #expect(Self.dispatch(&personal, personal.start(now: .zero), isOnDevice: true)?.strategy == .single)
        #expect(!personal.mayHedge(at: .thirdPartyCloud) && personal.mayHedge(at: .device))
        // The last candidate has nobody to hedge with.
        var last = Self.machine([Self.remote], hedging: true)
        #expect(Self.dispatch(&last, last.start(now: .zero), isOnDevice: false)?.strategy == .single)
    }

    @Test("The response comes from the last call report in one step: timings from the request's start, usage and counts")
    mutating func response() {
        var machine = Self.machine([Self.remote, Self.local], streaming: true, start: .seconds(10))
        _ = Self.dispatch(&machine, machine.start(now: .seconds(10)), isOnDevice: false)
        // The first call streams two tokens, then fails: resumed on the local provider.
        _ = machine.callFinished(.init(result: .failure(.transport("reset")), text: "Hello", tokens: 2, started: .seconds(10),
                                       firstTokenAt: .seconds(11), now: .seconds(12)), budget: &budget, random: &random)
        _ = machine.located(at: .device, cancelled: false, now: .seconds(12))
        _ = machine.breakerAnswered(.allowed, now: .seconds(12))
        _ = machine.admitted(queueWait: .milliseconds(5))
        var last = AttemptStateMachine.CallReport(result: .success(.stop), text: " world", tokens: 1, started: .seconds(12),
                                                  firstTokenAt: .seconds(13), now: .seconds(14))
        last.toolCalls = [ToolCall(id: "1", name: "lookup", arguments: "{}")]
        guard case .finish(.success(let response)) = machine.callFinished(last, budget: &budget, random: &random) else {
            Issue.record("not finished"); return
        }
        #expect(response.text == "Hello world" && response.providerID == "local" && response.fallbackFrom == "remote")
        #expect(response.attempts == 2 && response.resumes == 1 && response.hedges == 0)
        #expect(response.timings.total == .seconds(4))
        #expect(response.timings.timeToFirstToken == .seconds(1), "the first token the caller saw, from the first call")
        #expect(response.timings.queueWait == .milliseconds(5))
        #expect(response.usage.completionTokens == 3, "no usage reported: the tokens counted, resumed ones included")
        #expect(response.toolCalls.map(\.name) == ["lookup"])
    }
}
