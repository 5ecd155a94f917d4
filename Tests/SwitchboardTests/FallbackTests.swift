import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Fallback and retries")
struct FallbackTests {
    @Test("A chain: unavailable → fall back; 5xx → retry then fall back; success; events carry typed reasons")
    func chain() async throws {
        let clock = ImmediateClock()
        let a = Fixture.local("a", fault: .error(.unavailable("model unloaded")), clock: clock)
        let b = Fixture.local("b", fault: .error(.server(status: 503, message: "busy")), clock: clock)
        let c = Fixture.local("c", tokens: ["from", " c"], clock: clock)
        let coordinator = Coordinator(providers: [c, b, a], configuration: Fixture.configuration(), clock: clock, deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "Name three planets", preferredProviders: ["a", "b", "c"])
        let events = await Fixture.collect(coordinator.stream(request))
        #expect(events.map(\.eventLabel) == ["analyzed", "chosen:a#1", "fallback:a->b", "chosen:b#2", "chosen:b#3",
                                        "fallback:b->c", "chosen:c#4", "token:from", "token: c", "completed:c"])
        let reasons = events.compactMap { if case .fallback(_, _, let reason) = $0 { reason } else { nil } }
        #expect(reasons == [.unavailable("model unloaded"), .server(status: 503, message: "busy")])
        guard case .completed(let response)? = events.last else { Issue.record("no completion"); return }
        #expect(response.fallbackFrom == "a")
        #expect(response.attempts == 4)
        #expect(response.text == "from c")
        #expect(await [a.callCount, b.callCount, c.callCount] == [1, 2, 1])
        let metrics = await coordinator.metrics.snapshot()
        #expect(metrics.providers["a"]?.fallbacksOut == 1)
        #expect(metrics.providers["c"]?.fallbacksIn == 1)
    }

    @Test("A content-policy refusal or an invalid request ends that provider's calls only: the next one answers")
    func refusalFallsBack() async throws {
        for fault in [ProviderError.contentPolicy("refused"), .invalidRequest("unsupported parameter")] {
            let a = Fixture.local("a", fault: .error(fault))
            let b = Fixture.local("b")
            let coordinator = Coordinator(providers: [a, b], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
            let response = try await coordinator.respond(to: GenerationRequest(prompt: "x", preferredProviders: ["a"]))
            #expect(response.providerID == "b")
            #expect(response.fallbackFrom == "a")
            #expect(await a.callCount == 1, "not retried on the provider that refused")
            #expect(await b.callCount == 1)
        }
    }

    @Test("Context length exceeded falls back only to a provider with a larger context, when the request could need it")
    func contextLength() async throws {
        let small = Fixture.remote("a-small", context: 4096, fault: .error(.contextLengthExceeded(limit: 4096, requested: 5000)))
        let same = Fixture.remote("b-same", context: 4096)
        let large = Fixture.remote("c-large", context: 32_768)
        let coordinator = Coordinator(providers: [small, same, large], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        // 12,000 bytes: about 3,000 tokens by the estimate, so a-small is eligible, and up to 12,000 in the
        // worst tokenizer, so its claim of more than 4,096 is believable.
        let text = "Summarize: " + String(repeating: "lorem ipsum ", count: 1_000)
        let response = try await coordinator.respond(to: GenerationRequest(prompt: text, maxTokens: 64,
                                                                           preferredProviders: ["a-small", "b-same", "c-large"]))
        #expect(response.providerID == "c-large")
        #expect(await same.callCount == 0)
        #expect(await small.callCount == 1)
    }

    @Test("A context claim past anything a 21-token prompt can need rules out only the provider that made it",
          arguments: [999_999_999_999, Int.max])
    func absurdContextClaimKeepsTheDevice(_ limit: Int) async throws {
        let remote = Fixture.remote("remote", context: 128_000,
                                    fault: .error(.contextLengthExceeded(limit: limit, requested: limit)))
        let device = Fixture.local("device")
        let coordinator = Coordinator(providers: [remote, device], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "What is the boiling point of water at sea level in Celsius?",
                                        preferredProviders: ["remote"])
        let response = try await coordinator.respond(to: request)
        #expect(response.providerID == "device")
        #expect(response.fallbackFrom == "remote")
        #expect(await device.callCount == 1)
    }

    @Test("After tokens reached a stream's caller a failure resumes: each piece once, `resumed`, then the rest")
    func midStreamResumes() async throws {
        let clock = ImmediateClock()
        let flaky = Fixture.local("flaky", tokens: ["one", " two", " three"], fault: .failAfterTokens(2, .transport("reset")), clock: clock)
        let backup = Fixture.local("backup", tokens: ["one", " two", " three"], clock: clock)
        // One attempt per provider: the resume goes to the next provider, which continues the text.
        let configuration = Fixture.configuration(retry: RetryPolicy(maxAttemptsPerProvider: 1))
        let coordinator = Coordinator(providers: [flaky, backup], configuration: configuration, clock: clock, deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "count", preferredProviders: ["flaky"])
        let events = await Fixture.collect(coordinator.stream(request))
        #expect(events.map(\.eventLabel) == ["analyzed", "chosen:flaky#1", "token:one", "token: two",
                                             "resumed:flaky->backup", "chosen:backup#2", "token: three", "completed:backup"])
        guard case .completed(let response)? = events.last else { Issue.record("no completion"); return }
        #expect(response.text == "one two three")
        #expect(response.resumes == 1)
        #expect(response.usage.completionTokens == 3)
        let received = await backup.receivedRequests
        #expect(received.map(\.request.answerPrefix) == ["one two"])
    }

    @Test("A resume may go back to the same provider after its backoff")
    func midStreamResumesOnSameProvider() async throws {
        let clock = ImmediateClock()
        let flaky = ScriptedProvider(id: "flaky", capabilities: Fixture.localCapabilities(), output: .tokens(["a", "b", "c", "d"]),
                                     faults: FaultInjector(scheduled: [1: .failAfterTokens(3, .transport("reset"))]),
                                     clock: clock)
        let coordinator = Coordinator(providers: [flaky], configuration: Fixture.configuration(), clock: clock, deviceState: FixedDeviceState())
        let events = await Fixture.collect(coordinator.stream(GenerationRequest(prompt: "letters")))
        #expect(events.map(\.eventLabel) == ["analyzed", "chosen:flaky#1", "token:a", "token:b", "token:c",
                                             "resumed:flaky->flaky", "chosen:flaky#2", "token:d", "completed:flaky"])
    }

    @Test("With maxResumes 0 a failure after tokens is final (failedMidStream); respond starts over instead")
    func midStreamFinalWithoutResumes() async throws {
        let clock = ImmediateClock()
        let flaky = Fixture.local("flaky", tokens: ["one", " two", " three"], fault: .failAfterTokens(2, .transport("reset")), clock: clock)
        let backup = Fixture.local("backup", clock: clock)
        var configuration = Fixture.configuration()
        configuration.maxResumes = 0
        let coordinator = Coordinator(providers: [flaky, backup], configuration: configuration, clock: clock, deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "count", preferredProviders: ["flaky"])
        let events = await Fixture.collect(coordinator.stream(request))
        #expect(events.map(\.eventLabel) == ["analyzed", "chosen:flaky#1", "token:one", "token: two", "failed"])
        if case .failed(let error)? = events.last {
            #expect(error == .failedMidStream(AttemptFailure(provider: "flaky", error: .transport("reset"))))
        }
        #expect(await backup.callCount == 0)

        let response = try await coordinator.respond(to: request)
        #expect(response.providerID == "backup")
        #expect(response.content == "local answer")
        #expect(response.resumes == 0)
        #expect(await flaky.callCount == 3)  // 1 streamed + 2 (first try and one retry) for respond
    }

    @Test("rateLimited(retryAfter:) within the cap waits at least retryAfter before retrying")
    func retryAfter() async throws {
        let clock = ImmediateClock()
        let limited = ScriptedProvider(id: "limited", capabilities: Fixture.localCapabilities(), output: .tokens(["ok"]),
                                       faults: FaultInjector(scheduled: [1: .error(.rateLimited(retryAfter: .seconds(4)))]),
                                       clock: clock)
        let coordinator = Coordinator(providers: [limited], configuration: Fixture.configuration(), clock: clock, deviceState: FixedDeviceState())
        let before = clock.now
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "hi"))
        #expect(response.attempts == 2)
        #expect(before.duration(to: clock.now) >= .seconds(4))
    }

    @Test("A hung provider is cut off by the latency budget")
    func deadline() async {
        let clock = ManualClock()
        let hung = Fixture.local("hung", fault: .hang, clock: clock)
        let coordinator = Coordinator(providers: [hung], configuration: Fixture.configuration(), clock: clock, deviceState: FixedDeviceState())
        let task = Task { await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "hi", latencyBudget: .seconds(2))) } }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(2))
        let error = await task.value
        #expect(error == .deadlineExceeded)
        #expect(await hung.callCount == 1)
        #expect(await coordinator.loadBalancer.totalInFlight == 0)
        let metrics = await coordinator.metrics.metrics(for: "hung")
        #expect(metrics?.failures == 1)
    }

    @Test("Within the latency budget a paced answer streams through and completes")
    func budgetedSuccess() async {
        let clock = ManualClock()
        let paced = ScriptedProvider(id: "paced", capabilities: Fixture.localCapabilities(), output: .tokens(["a", "b"]),
                                     timeToFirstToken: .milliseconds(500), tokenInterval: .milliseconds(500), clock: clock)
        let coordinator = Coordinator(providers: [paced], configuration: Fixture.configuration(), clock: clock, deviceState: FixedDeviceState())
        let task = Task { await Fixture.collect(coordinator.stream(GenerationRequest(prompt: "go", latencyBudget: .seconds(2)))) }
        // The provider's pacing and the deadline timer both sleep on the clock.
        #expect(await clock.waitForSleepers(2))
        clock.advance(by: .milliseconds(500))
        #expect(await clock.waitForSleepers(2))
        clock.advance(by: .milliseconds(500))
        let events = await task.value
        #expect(events.map(\.eventLabel) == ["analyzed", "chosen:paced#1", "token:a", "token:b", "completed:paced"])
        let received = await paced.receivedRequests
        #expect(received.first?.timeout == .seconds(2))
        #expect(clock.sleeperCount == 0)
    }

    @Test("The configuration's default budget cuts off a hung provider for requests without one")
    func defaultBudget() async {
        let clock = ManualClock()
        let hung = Fixture.local("hung", fault: .hang, clock: clock)
        var configuration = Fixture.configuration()
        configuration.defaultLatencyBudget = .seconds(30)
        let coordinator = Coordinator(providers: [hung], configuration: configuration, clock: clock, deviceState: FixedDeviceState())
        let task = Task { await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "hi")) } }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(await task.value == .deadlineExceeded)
    }
}
