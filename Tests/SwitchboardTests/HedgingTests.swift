import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// Hedged requests on the real clock with short delays: the slow side sleeps for seconds, the race is
/// decided in milliseconds, and the loser's sleep is cancelled.
@Suite("Hedged requests")
struct HedgingTests {
    static func provider(_ id: ProviderID, firstToken: Duration, onDevice: Bool = true,
                         tokens: [String] = ["an", " answer"]) -> ScriptedProvider {
        ScriptedProvider(id: id, capabilities: ProviderCapabilities(isOnDevice: onDevice, maxContextTokens: 8192),
                         output: .tokens(tokens), timeToFirstToken: firstToken)
    }

    static func configuration(delay: Duration = .milliseconds(40), ratio: Double = 1, minimum: Int = 10) -> SwitchboardConfiguration {
        var configuration = Fixture.configuration()
        // A window longer than any test, so a machine that stalls the test for seconds keeps the count.
        configuration.hedging = HedgingPolicy(enabled: true, delay: delay, minimumDelay: .zero,
                                              maxExtraCallRatio: ratio, minimumHedges: minimum, window: .seconds(3600))
        return configuration
    }

    @Test("A slow first provider is hedged: the hedge answers and the first call is cancelled at once")
    func hedgeWins() async throws {
        let slow = Self.provider("slow", firstToken: .seconds(30))
        let fast = Self.provider("fast", firstToken: .zero, tokens: ["quick"])
        let coordinator = Coordinator(providers: [slow, fast], configuration: Self.configuration(), deviceState: FixedDeviceState())
        let events = await Fixture.collect(coordinator.stream(GenerationRequest(prompt: "hi", preferredProviders: ["slow", "fast"])))
        #expect(events.map(\.eventLabel) == ["analyzed", "chosen:slow#1", "hedged:slow+fast", "token:quick", "completed:fast"])
        guard case .completed(let response)? = events.last else { return }
        #expect(response.hedges == 1)
        #expect(response.attempts == 2)
        #expect(await Fixture.eventually { await slow.activeStreams == 0 }, "the losing call was cancelled")
        let metrics = await coordinator.metricsSnapshot()
        #expect(metrics.providers["fast"]?.hedgesStarted == 1 && metrics.providers["fast"]?.hedgesWon == 1)
        #expect(metrics.providers["slow"]?.hedgesCancelled == 1)
        #expect(await coordinator.loadBalancer.status(of: "slow").inFlight == 0, "the loser's slot was released")
    }

    @Test("When the first provider's token comes first, it answers and the hedge is cancelled")
    func primaryWins() async throws {
        let primary = Self.provider("primary", firstToken: .milliseconds(150))
        let hedge = Self.provider("hedge", firstToken: .seconds(30))
        let coordinator = Coordinator(providers: [primary, hedge], configuration: Self.configuration(), deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "hi", preferredProviders: ["primary", "hedge"]))
        #expect(response.providerID == "primary")
        #expect(response.content == "an answer")
        #expect(response.hedges == 1)
        #expect(response.fallbackFrom == nil)
        #expect(await Fixture.eventually { await hedge.activeStreams == 0 })
        #expect(await coordinator.metricsSnapshot().providers["hedge"]?.hedgesWon == 0)
    }

    @Test("A first token before the delay means no hedge at all")
    func fastPrimaryIsNotHedged() async throws {
        let primary = Self.provider("primary", firstToken: .zero)
        let hedge = Self.provider("hedge", firstToken: .zero)
        let coordinator = Coordinator(providers: [primary, hedge], configuration: Self.configuration(delay: .seconds(5)),
                                      deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "hi", preferredProviders: ["primary", "hedge"]))
        #expect(response.providerID == "primary" && response.hedges == 0)
        #expect(await hedge.callCount == 0)
    }

    @Test("A private request is never hedged to a remote provider")
    func privateRequestsHedgeOnDeviceOnly() async throws {
        let slow = Self.provider("slow-local", firstToken: .milliseconds(200))
        let remote = Self.provider("remote", firstToken: .zero, onDevice: false)
        let coordinator = Coordinator(providers: [slow, remote], configuration: Self.configuration(), deviceState: FixedDeviceState())
        var request = GenerationRequest(prompt: "My SSN is 219-09-9999, is that safe to share?")
        request.hedge = true
        let response = try await coordinator.respond(to: request)
        #expect(response.providerID == "slow-local" && response.hedges == 0)
        #expect(await remote.callCount == 0)
    }

    @Test("Hedges stay within their budget: 10% of requests over the window")
    func budget() async throws {
        let slow = Self.provider("slow", firstToken: .milliseconds(150))
        let other = Self.provider("other", firstToken: .seconds(30))
        let coordinator = Coordinator(providers: [slow, other], configuration: Self.configuration(delay: .milliseconds(5), ratio: 0.1, minimum: 0),
                                      deviceState: FixedDeviceState())
        var hedges = 0
        for _ in 0..<20 {
            hedges += try await coordinator.respond(to: GenerationRequest(prompt: "hi", preferredProviders: ["slow", "other"])).hedges
        }
        #expect(hedges == 2)
        #expect(await other.callCount == 2)
    }

    @Test("Opt-in: without the configuration, a request hedges only when it asks to")
    func optIn() async throws {
        let slow = Self.provider("slow", firstToken: .seconds(30))
        let fast = Self.provider("fast", firstToken: .zero)
        var configuration = Self.configuration()
        configuration.hedging.enabled = false
        let coordinator = Coordinator(providers: [slow, fast], configuration: configuration, deviceState: FixedDeviceState())
        var request = GenerationRequest(prompt: "hi", preferredProviders: ["slow", "fast"])
        request.hedge = true
        let hedged = try await coordinator.respond(to: request)
        #expect(hedged.providerID == "fast", "\(hedged)")
        request.hedge = false
        request.latencyBudget = .milliseconds(200)
        await #expect(throws: SwitchboardError.self) { try await coordinator.respond(to: request) }
        #expect(await fast.callCount == 1)
    }

    @Test("The latency budget holds for a hedged call: a winner that streams past it is cut off")
    func deadlineCoversTheWinner() async throws {
        let slow = Self.provider("slow", firstToken: .seconds(30))
        let dripping = ScriptedProvider(id: "dripping", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192),
                                        output: .tokens(["one", " two"]), tokenInterval: .seconds(120))
        let coordinator = Coordinator(providers: [slow, dripping], configuration: Self.configuration(), deviceState: FixedDeviceState())
        var request = GenerationRequest(prompt: "hi", preferredProviders: ["slow", "dripping"])
        request.latencyBudget = .milliseconds(300)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: SwitchboardError.deadlineExceeded) { try await coordinator.respond(to: request) }
        #expect(started.duration(to: clock.now) < .seconds(60), "cut at the budget, not after the 120 s token")
        #expect(await Fixture.eventually { await slow.activeStreams == 0 })
        #expect(await Fixture.eventually { await dripping.activeStreams == 0 })
    }
}
