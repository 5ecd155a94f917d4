import Testing
@testable import SwitchboardCore

@Suite("Scoring policy")
struct ScoringPolicyTests {
    let scoring = ScoringPolicy()
    let request = GenerationRequest(prompt: "hello", maxTokens: 50)

    func ranked(_ candidates: [ProviderCandidate], request: GenerationRequest? = nil,
                analysis: RequestAnalysis = PolicyFixtures.analysis(.public), device: DeviceState = .nominal) -> [ProviderID] {
        scoring.rank(candidates, request: request ?? self.request, analysis: analysis, device: device).map(\.id)
    }

    @Test("Priors decide before data: the faster, free local model wins a short public request")
    func priors() {
        #expect(ranked([PolicyFixtures.remote, PolicyFixtures.local]) == ["local", "remote"])
    }

    @Test("Observed latency overrides priors")
    func observedLatency() {
        var slowLocal = PolicyFixtures.local
        for _ in 0..<20 { slowLocal.estimate.recordSuccess(timeToFirstToken: .seconds(3), generation: .seconds(10), tokens: 20) }
        #expect(ranked([PolicyFixtures.remote, slowLocal]) == ["remote", "local"])
    }

    @Test("Errors lower a provider's health score")
    func health() {
        var failing = PolicyFixtures.local
        for _ in 0..<10 { failing.estimate.recordFailure() }
        let healthy = scoring.score(PolicyFixtures.local, request: request, analysis: PolicyFixtures.analysis(.public), device: .nominal)
        let sick = scoring.score(failing, request: request, analysis: PolicyFixtures.analysis(.public), device: .nominal)
        #expect(sick.health < 0.2)
        #expect(sick.total < healthy.total)
    }

    @Test("Cost counts: an expensive provider scores lower than an identical free one")
    func cost() {
        var free = PolicyFixtures.remote
        free.capabilities.pricing = .free
        var pricey = PolicyFixtures.remote
        pricey = ProviderCandidate(id: "a-pricey", capabilities: pricey.capabilities)
        pricey.capabilities.pricing = TokenPricing(inputPerMillion: 30, outputPerMillion: 60)
        #expect(ranked([pricey, free]) == ["remote", "a-pricey"])
    }

    @Test("A hot, low-battery device pushes public work off the device, not private work")
    func deviceState() {
        let stressed = DeviceState(memoryPressure: .warning, thermal: .serious, batteryLevel: 0.1, isCharging: false)
        #expect(ranked([PolicyFixtures.local, PolicyFixtures.remote], device: stressed) == ["remote", "local"])
        let personal = scoring.score(PolicyFixtures.local, request: request, analysis: PolicyFixtures.analysis(.personal), device: stressed)
        #expect(personal.device == 1)
    }

    @Test("Preferred providers come first, in the request's order")
    func preferred() {
        let request = GenerationRequest(prompt: "x", preferredProviders: ["remote"])
        #expect(ranked([PolicyFixtures.local, PolicyFixtures.remote], request: request) == ["remote", "local"])
    }

    @Test("Optimizer weight scales the score")
    func weight() {
        var downWeighted = PolicyFixtures.local
        downWeighted.weight = 0.1
        #expect(ranked([downWeighted, PolicyFixtures.remote]) == ["remote", "local"])
    }

    @Test("Equal scores are ordered by id, whatever the input order")
    func ties() {
        let a = ProviderCandidate(id: "a", capabilities: PolicyFixtures.local.capabilities)
        let b = ProviderCandidate(id: "b", capabilities: PolicyFixtures.local.capabilities)
        let c = ProviderCandidate(id: "c", capabilities: PolicyFixtures.local.capabilities)
        #expect(ranked([c, a, b]) == ["a", "b", "c"])
        #expect(ranked([b, c, a]) == ["a", "b", "c"])
    }

    @Test("A prediction beyond the latency budget is penalized")
    func budget() {
        let budgeted = GenerationRequest(prompt: "x", latencyBudget: .milliseconds(500), maxTokens: 50)
        let score = scoring.score(PolicyFixtures.local, request: budgeted, analysis: PolicyFixtures.analysis(.public), device: .nominal)
        let unbudgeted = scoring.score(PolicyFixtures.local, request: request, analysis: PolicyFixtures.analysis(.public), device: .nominal)
        #expect(score.latency < unbudgeted.latency * 0.2)
    }

    @Test("Complex work lowers an on-device model's content fit, not a remote one's")
    func complexity() {
        var complex = PolicyFixtures.analysis(.public)
        complex.complexity = .complex
        let simpleLocal = scoring.score(PolicyFixtures.local, request: request, analysis: PolicyFixtures.analysis(.public), device: .nominal)
        let complexLocal = scoring.score(PolicyFixtures.local, request: request, analysis: complex, device: .nominal)
        let complexRemote = scoring.score(PolicyFixtures.remote, request: request, analysis: complex, device: .nominal)
        #expect(complexLocal.contentFit < simpleLocal.contentFit * 0.5)
        #expect(complexRemote.contentFit == 1)
        #expect(ranked([PolicyFixtures.local, PolicyFixtures.remote], analysis: complex) == ["remote", "local"])
    }
}
