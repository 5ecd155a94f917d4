import Testing
@testable import SwitchboardCore

/// A server's context claims are hints, and a resume carries only what the next provider can hold:
/// the decisions, fed by hand (no tasks, no providers).
@Suite("Attempt state machine: context claims and carried text")
struct AttemptContextTests {
    static let remote = AttemptStateMachine.Candidate(id: "remote", isOnDevice: false, maxContextTokens: 128_000)
    static let other = AttemptStateMachine.Candidate(id: "other", isOnDevice: false, maxContextTokens: 4_096)
    static let device = AttemptStateMachine.Candidate(id: "device", isOnDevice: true, maxContextTokens: 8_192)

    /// A 21-token prompt (84 bytes) asking for 256 tokens.
    static let small = AttemptStateMachine.RequestSize(estimatedPromptTokens: 21, maxTokens: 256)

    static func machine(_ candidates: [AttemptStateMachine.Candidate], size: AttemptStateMachine.RequestSize = small,
                        streaming: Bool = true) -> AttemptStateMachine {
        AttemptStateMachine(candidates: candidates, level: .public, retry: RetryPolicy(maxAttemptsPerProvider: 1),
                            privacy: PrivacyPolicy(), streaming: streaming, maxResumes: 2, deadline: nil, size: size)
    }

    var budget = RetryBudget(ratio: 1, minimumRetries: 10)
    var random = SeededRandom(seed: 7)

    static func resumed(_ plan: AttemptStateMachine.CallPlan?) -> CarriedText? {
        for event in plan?.events ?? [] { if case .resumed(_, _, _, let carried) = event { return carried } }
        return nil
    }

    @Test("An absurd context claim rules out only the remote that made it", arguments: [999_999_999_999, Int.max, 9_000, 4_096])
    mutating func absurdClaimRulesOutOnlyItsSender(_ limit: Int) {
        var machine = Self.machine([Self.remote, Self.other, Self.device])
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        let next = machine.callFinished(.init(result: .failure(.contextLengthExceeded(limit: limit, requested: limit.saturatingAdd(1))),
                                              now: .zero), budget: &budget, random: &random)
        // 84 bytes + 256 answer tokens + template room cannot need 4,096 tokens, whatever the server says.
        guard case .check(let id) = next else { Issue.record("expected the next candidate, got \(next)"); return }
        #expect(id == "other")
        #expect(machine.skipped.isEmpty)
    }

    @Test("A claim the request could really need still skips the providers too small for it")
    mutating func plausibleClaimSkipsSmallerContexts() {
        // 16,000 bytes: up to 16,000 tokens in the worst tokenizer, so a 9,000-token claim is believable.
        var machine = Self.machine([Self.remote, Self.other, Self.device],
                                   size: .init(estimatedPromptTokens: 4_000, maxTokens: 256))
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        let next = machine.callFinished(.init(result: .failure(.contextLengthExceeded(limit: 9_000, requested: 9_500)), now: .zero),
                                        budget: &budget, random: &random)
        guard case .finish(.failure(.allProvidersFailed)) = next else { Issue.record("expected no candidate left, got \(next)"); return }
        #expect(machine.skipped.map(\.provider) == ["other", "device"])
        #expect(machine.skipped.allSatisfy { $0.reason == .contextTooSmall })
    }

    @Test("The believed minimum never exceeds what the request can need", arguments: [0, 1, 21, 1_000_000, Int.max])
    func believedMinimumIsBounded(_ promptTokens: Int) {
        let machine = Self.machine([Self.device], size: .init(estimatedPromptTokens: promptTokens, maxTokens: Int.max, imageCount: 3))
        let ceiling = machine.size.contextCeiling
        #expect(ceiling > 0)
        #expect(machine.believedMinimumContext(claimed: Int.max) < ceiling)
        #expect(machine.believedMinimumContext(claimed: 100) == min(100, ceiling - 1))
        #expect(machine.believedMinimumContext(claimed: -5) == -5)
    }

    /// Fails `remote` after `pieces` streamed, then admits the device; the device's plan.
    mutating func resumeOnDevice(_ pieces: [String], maxTokens: Int = 256) -> (AttemptStateMachine, AttemptStateMachine.CallPlan?) {
        var machine = Self.machine([Self.remote, Self.device], size: .init(estimatedPromptTokens: 21, maxTokens: maxTokens))
        _ = machine.start(now: .zero)
        _ = machine.admitted(queueWait: .zero)
        let next = machine.callFinished(.init(result: .failure(.transport("reset")), text: pieces.joined(), tokens: pieces.count,
                                              now: .zero), budget: &budget, random: &random)
        guard case .check("device") = next else { Issue.record("expected the device, got \(next)"); return (machine, nil) }
        guard case .call(let plan) = machine.admitted(queueWait: .zero) else { Issue.record("no call"); return (machine, nil) }
        return (machine, plan)
    }

    @Test("Text that fits is carried whole")
    mutating func smallTextIsCarriedWhole() {
        let (_, plan) = resumeOnDevice(["The capital", " of France"])
        #expect(plan?.answerPrefix == "The capital of France")
        #expect(Self.resumed(plan) == .whole)
    }

    @Test("Thirty 1 MB tokens are not carried: only the end that fits the device's context, counted a token per byte")
    mutating func hugeTextIsTrimmedToTheContext() throws {
        let piece = String(repeating: "é", count: 524_288)  // 1 MiB of two-byte characters
        let (machine, plan) = resumeOnDevice(Array(repeating: piece, count: 30))
        let prefix = try #require(plan?.answerPrefix)
        // 8,192 − 21 prompt − 226 answer left − 16 template tokens.
        #expect(prefix.utf8.count <= 8_192 - 21 - 226 - 16)
        #expect(prefix.utf8.count >= 7_900)
        #expect(prefix.unicodeScalars.allSatisfy { $0 == "é" }, "cut on a character boundary")
        guard case .trimmed(let kept, let dropped)? = Self.resumed(plan) else { Issue.record("not trimmed"); return }
        #expect(kept == prefix.utf8.count && kept + dropped == 30 * 1_048_576)
        // The caller already has all of it: the answer still begins with everything delivered.
        #expect(machine.delivered.utf8.count == 30 * 1_048_576)
    }

    @Test("With no room at all for a prefix the next provider starts over, and the old text leaves the answer")
    mutating func noRoomRestarts() {
        // maxTokens 8,150 leaves the device 8,192 − 21 − 8,149 answer tokens − 16 = 6 tokens for a prefix.
        let (machine, plan) = resumeOnDevice([String(repeating: "x", count: 200)], maxTokens: 8_150)
        #expect(plan?.answerPrefix == nil)
        #expect(Self.resumed(plan) == .restarted(droppedBytes: 200))
        #expect(machine.delivered.isEmpty && machine.deliveredTokens == 0)
        var machine2 = machine
        let end = machine2.callFinished(.init(result: .success(.stop), text: "fresh", tokens: 1, now: .zero),
                                        budget: &budget, random: &random)
        guard case .finish(.success(let success)) = end else { Issue.record("not finished: \(end)"); return }
        #expect(success.text == "fresh")
    }

    @Test("The default deadline is seconds scaled by maxTokens, capped, for any maxTokens",
          arguments: [(8, 30.8), (256, 55.6), (1_024, 132.4), (100_000, 600.0), (Int.max, 600.0), (-5, 30.0), (0, 30.0)])
    func defaultDeadline(_ maxTokens: Int, _ seconds: Double) {
        let budget = RequestDeadline().budget(maxTokens: maxTokens)
        #expect(abs(budget.seconds - seconds) < 1e-6)
    }
}
