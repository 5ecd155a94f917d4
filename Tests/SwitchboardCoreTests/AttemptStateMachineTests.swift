import Testing
@testable import SwitchboardCore

/// The request's decisions, fed by hand: no tasks, no clock, no providers.
@Suite("Attempt state machine")
struct AttemptStateMachineTests {
    static let remote = AttemptStateMachine.Candidate(id: "remote", isOnDevice: false, maxContextTokens: 128_000)
    static let local = AttemptStateMachine.Candidate(id: "local", isOnDevice: true, maxContextTokens: 8192)
    static let backup = AttemptStateMachine.Candidate(id: "backup", isOnDevice: true, maxContextTokens: 8192)

    static func machine(_ candidates: [AttemptStateMachine.Candidate], level: PrivacyLevel = .public,
                        retry: RetryPolicy = RetryPolicy(maxAttemptsPerProvider: 1), streaming: Bool = true,
                        maxResumes: Int = 2, deadline: Duration? = nil) -> AttemptStateMachine {
        AttemptStateMachine(candidates: candidates, level: level, retry: retry, privacy: PrivacyPolicy(),
                            streaming: streaming, maxResumes: maxResumes, deadline: deadline)
    }

    static func checked(_ action: AttemptStateMachine.Action) -> ProviderID? {
        if case .check(let id) = action { id } else { nil }
    }

    static func plan(_ action: AttemptStateMachine.Action) -> AttemptStateMachine.CallPlan? {
        if case .call(let plan) = action { plan } else { nil }
    }

    static func failure(_ action: AttemptStateMachine.Action) -> SwitchboardError? {
        if case .finish(.failure(let error)) = action { error } else { nil }
    }

    var budget = RetryBudget(ratio: 1, minimumRetries: 10)
    var random = SeededRandom(seed: 7)

    @Test("A sensitive request skips the remote candidate before any slot is taken")
    mutating func privacyFirst() {
        var machine = Self.machine([Self.remote, Self.local], level: .sensitive)
        #expect(Self.checked(machine.start(now: .zero)) == "local")
        #expect(machine.skipped == [Ineligibility(provider: "remote", reason: .privacy)])
        let plan = Self.plan(machine.admitted(queueWait: .milliseconds(3)))
        #expect(plan?.provider == "local" && plan?.attempt == 1 && plan?.answerPrefix == nil)
        let end = machine.callFinished(.init(result: .success(.stop), text: "hi", tokens: 1, now: .zero), budget: &budget, random: &random)
        guard case .finish(.success(let success)) = end else { Issue.record("not finished: \(end)"); return }
        #expect(success.providerID == "local" && success.text == "hi")
        #expect(machine.queueWait == .milliseconds(3))
    }

    @Test("A failure before any token falls back with a `fallback` event and no prefix")
    mutating func fallbackBeforeTokens() {
        var machine = Self.machine([Self.remote, Self.local])
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        let next = machine.callFinished(.init(result: .failure(.server(status: 503, message: "busy")), now: .zero),
                                        budget: &budget, random: &random)
        #expect(Self.checked(next) == "local")
        let plan = Self.plan(machine.admitted(queueWait: .zero))
        #expect(plan?.answerPrefix == nil)
        #expect(plan?.isFallback == true)
        #expect(plan?.events.first.map { if case .fallback(let from, let to, _) = $0 { from == "remote" && to == "local" } else { false } } == true)
        #expect(machine.audit.map(\.failure) == ["server 503", nil])
    }

    @Test("A failure after streamed tokens resumes on the next provider with the text so far")
    mutating func resumeCarriesPrefix() {
        var machine = Self.machine([Self.remote, Self.local])
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        let next = machine.callFinished(.init(result: .failure(.transport("reset")), text: "The capital", tokens: 2, now: .zero),
                                        budget: &budget, random: &random)
        #expect(Self.checked(next) == "local")
        let plan = Self.plan(machine.admitted(queueWait: .zero))
        #expect(plan?.answerPrefix == "The capital")
        #expect(plan?.events.first.map { if case .resumed(let from, let to, _, _) = $0 { from == "remote" && to == "local" } else { false } } == true)
        let end = machine.callFinished(.init(result: .success(.stop), usage: TokenUsage(promptTokens: 5, completionTokens: 3),
                                             text: " is Paris.", tokens: 3, now: .zero), budget: &budget, random: &random)
        guard case .finish(.success(let success)) = end else { Issue.record("not finished: \(end)"); return }
        #expect(success.text == "The capital is Paris.")
        #expect(success.usage.completionTokens == 5)
        #expect(machine.resumes == 1)
    }

    @Test("Resumes stop at maxResumes: the next mid-stream failure is final")
    mutating func resumeLimit() {
        var machine = Self.machine([Self.remote, Self.local, Self.backup], maxResumes: 1)
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        _ = machine.callFinished(.init(result: .failure(.transport("reset")), text: "a", tokens: 1, now: .zero), budget: &budget, random: &random)
        _ = machine.admitted(queueWait: .zero)
        let end = machine.callFinished(.init(result: .failure(.transport("reset")), text: "b", tokens: 1, now: .zero),
                                       budget: &budget, random: &random)
        #expect(Self.failure(end) == .failedMidStream(AttemptFailure(provider: "local", error: .transport("reset"))))
        #expect(machine.delivered == "ab")
    }

    @Test("A resume is charged to the retry budget; with none left it goes to the next provider, not the same one")
    mutating func resumeChargesBudget() {
        var empty = RetryBudget(ratio: 0, minimumRetries: 0)
        var machine = Self.machine([Self.remote, Self.local], retry: RetryPolicy(maxAttemptsPerProvider: 2))
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        let next = machine.callFinished(.init(result: .failure(.transport("reset")), text: "a", tokens: 1, now: .zero),
                                        budget: &empty, random: &random)
        #expect(Self.checked(next) == "local", "no budget for a retry here: resumed on the next provider")
        #expect(empty.usage(at: .zero).retries == 1)
        #expect(Self.plan(machine.admitted(queueWait: .zero))?.answerPrefix == "a")
    }

    @Test("Without a stream (respond) a failed call's text is dropped and the next call starts over")
    mutating func respondStartsOver() {
        var machine = Self.machine([Self.remote, Self.local], streaming: false)
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        _ = machine.callFinished(.init(result: .failure(.transport("reset")), text: "half", tokens: 1, now: .zero),
                                 budget: &budget, random: &random)
        let plan = Self.plan(machine.admitted(queueWait: .zero))
        #expect(plan?.answerPrefix == nil)
        #expect(machine.resumes == 0)
        // Only the fallback: without a stream nobody is told which provider was chosen.
        #expect(plan?.events.count == 1)
        #expect(plan?.events.first.map { if case .fallback = $0 { true } else { false } } == true)
    }

    @Test("A retry on the same provider sleeps, then takes a slot there again")
    mutating func retrySameProvider() {
        var machine = Self.machine([Self.remote, Self.local], retry: RetryPolicy(maxAttemptsPerProvider: 2, jitter: 0))
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        let next = machine.callFinished(.init(result: .failure(.timeout), now: .zero), budget: &budget, random: &random)
        guard case .retry(let delay) = next else { Issue.record("expected a retry, got \(next)"); return }
        #expect(delay == .milliseconds(50))
        #expect(Self.checked(machine.wokeUp(now: delay)) == "remote")
        let plan = Self.plan(machine.admitted(queueWait: .zero))
        #expect(plan?.attempt == 2)
        #expect(plan?.events.count == 1)  // providerChosen only: no fallback to itself
    }

    @Test("Past the deadline the next step finishes with deadlineExceeded")
    mutating func deadline() {
        var machine = Self.machine([Self.remote, Self.local], deadline: .seconds(1))
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        let end = machine.callFinished(.init(result: .failure(.server(status: 500, message: "")), now: .seconds(2)),
                                       budget: &budget, random: &random)
        #expect(Self.failure(end) == .deadlineExceeded)
    }

    @Test("Full queues everywhere end with the last slot error; breakers open everywhere with noEligibleProvider")
    mutating func slotsAndBreakers() {
        var machine = Self.machine([Self.remote, Self.local])
        _ = machine.start(now: .zero)
        #expect(Self.checked(machine.slotUnavailable(.overloaded("remote"), now: .zero)) == "local")
        #expect(Self.failure(machine.slotUnavailable(.queueTimeout("local"), now: .zero)) == .queueTimeout("local"))

        var open = Self.machine([Self.remote, Self.local])
        _ = open.start(now: .zero)
        _ = open.skipped(.circuitOpen, now: .zero)
        let end = open.skipped(.circuitOpen, now: .zero)
        #expect(Self.failure(end) == .noEligibleProvider([Ineligibility(provider: "remote", reason: .circuitOpen),
                                                         Ineligibility(provider: "local", reason: .circuitOpen)]))
        #expect(Self.failure(machine.cancelled()) == .cancelled)
    }
}
