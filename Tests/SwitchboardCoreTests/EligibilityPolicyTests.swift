import Testing
@testable import SwitchboardCore

@Suite("Eligibility policy")
struct EligibilityPolicyTests {
    let policy = EligibilityPolicy()
    let local = PolicyFixtures.local
    let remote = PolicyFixtures.remote

    func reason(_ candidate: ProviderCandidate, _ request: GenerationRequest = GenerationRequest(prompt: "hi", maxTokens: 100),
                _ analysis: RequestAnalysis = PolicyFixtures.analysis(.public), device: DeviceState = .nominal,
                policy: EligibilityPolicy? = nil) -> Ineligibility.Reason? {
        (policy ?? self.policy).reasonToExclude(candidate, request: request, analysis: analysis, device: device)
    }

    @Test("Privacy excludes remote providers for sensitive and (by default) personal requests")
    func privacy() {
        #expect(reason(remote, GenerationRequest(prompt: "x"), PolicyFixtures.analysis(.sensitive)) == .privacy)
        #expect(reason(remote, GenerationRequest(prompt: "x"), PolicyFixtures.analysis(.personal)) == .privacy)
        #expect(reason(remote, GenerationRequest(prompt: "x"), PolicyFixtures.analysis(.personal),
                       policy: EligibilityPolicy(privacy: PrivacyPolicy(allowPersonalRemote: true))) == nil)
        #expect(reason(remote, GenerationRequest(prompt: "x"), PolicyFixtures.analysis(.sensitive),
                       policy: EligibilityPolicy(privacy: PrivacyPolicy(allowPersonalRemote: true))) == .privacy)
        #expect(reason(local, GenerationRequest(prompt: "x"), PolicyFixtures.analysis(.sensitive)) == nil)
    }

    @Test("Context must hold the estimated prompt plus maxTokens")
    func contextLength() {
        // local holds 2048: 1948 + 100 fits exactly, one more does not.
        #expect(reason(local, GenerationRequest(prompt: "x", maxTokens: 100), PolicyFixtures.analysis(.public, promptTokens: 1948)) == nil)
        #expect(reason(local, GenerationRequest(prompt: "x", maxTokens: 101), PolicyFixtures.analysis(.public,
            promptTokens: 1948)) == .contextTooSmall)
        #expect(reason(local, GenerationRequest(prompt: "x", maxTokens: Int.max), PolicyFixtures.analysis(.public,
            promptTokens: 5)) == .contextTooSmall)
    }

    @Test("Images and structured output need support")
    func capabilities() {
        #expect(reason(local, GenerationRequest(prompt: "x"), PolicyFixtures.analysis(.public, images: 1)) == .noImageSupport)
        #expect(reason(remote, GenerationRequest(prompt: "x"), PolicyFixtures.analysis(.public, images: 1)) == nil)
        let structured = GenerationRequest(prompt: "x", output: .jsonSchema("{}"))
        #expect(reason(local, structured, PolicyFixtures.analysis(.public, structured: true)) == .noStructuredOutput)
        #expect(reason(remote, structured, PolicyFixtures.analysis(.public, structured: true)) == nil)
    }

    @Test("Exclusion, availability and an open breaker exclude")
    func exclusionAvailabilityBreaker() {
        #expect(reason(remote, GenerationRequest(prompt: "x", excludedProviders: ["remote"])) == .excluded)
        var down = remote
        down.availability = .unavailable(reason: "offline")
        #expect(reason(down) == .unavailable)
        var loading = local
        loading.availability = .loading(progress: 0.3)
        #expect(reason(loading) == nil)
        var open = remote
        open.breaker = .open(until: .seconds(5))
        #expect(reason(open) == .circuitOpen)
        var halfOpen = remote
        halfOpen.breaker = .halfOpen
        #expect(reason(halfOpen) == nil)
    }

    @Test("A critical device sheds public on-device work but keeps private work")
    func deviceState() {
        let hot = DeviceState(thermal: .critical)
        #expect(reason(local, device: hot) == .deviceState)
        #expect(reason(local, GenerationRequest(prompt: "x"), PolicyFixtures.analysis(.sensitive), device: hot) == nil)
        #expect(reason(remote, device: hot) == nil)
        #expect(reason(local, device: DeviceState(memoryPressure: .critical)) == .deviceState)
        #expect(reason(local, device: DeviceState(thermal: .serious)) == nil)
    }

    @Test("evaluate splits candidates and names every exclusion")
    func evaluate() {
        let result = policy.evaluate([local, remote], request: GenerationRequest(prompt: "x"),
                                     analysis: PolicyFixtures.analysis(.sensitive), device: .nominal)
        #expect(result.eligible.map(\.id) == ["local"])
        #expect(result.ineligible == [Ineligibility(provider: "remote", reason: .privacy)])
    }
}
