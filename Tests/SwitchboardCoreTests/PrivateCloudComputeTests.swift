import Testing
@testable import SwitchboardCore

@Suite("Private Cloud Compute as a third place")
struct PrivateCloudComputeTests {
    static let levels = PrivacyLevel.allCases

    @Test("Default policy: the device takes everything, Private Cloud Compute and third-party clouds only public and contextual")
    func defaults() {
        let policy = PrivacyPolicy()
        for level in Self.levels {
            #expect(policy.mayDispatch(level, to: .device))
            #expect(policy.mayDispatch(level, to: .privateCloudCompute) == (level <= .contextual), "\(level)")
            #expect(policy.mayDispatch(level, to: .thirdPartyCloud) == (level <= .contextual), "\(level)")
        }
    }

    @Test("Allowing personal data on Private Cloud Compute opens it there only; sensitive stays on the device")
    func personalOnPrivateCloudCompute() {
        let policy = PrivacyPolicy(allowPersonalPrivateCloudCompute: true)
        #expect(policy.mayDispatch(.personal, to: .privateCloudCompute))
        #expect(!policy.mayDispatch(.personal, to: .thirdPartyCloud))
        #expect(!policy.mayDispatch(.sensitive, to: .privateCloudCompute))
        // Allowing personal data on any remote provider implies Private Cloud Compute, never sensitive.
        let remote = PrivacyPolicy(allowPersonalRemote: true)
        #expect(remote.mayDispatch(.personal, to: .privateCloudCompute) && remote.mayDispatch(.personal, to: .thirdPartyCloud))
        let both = PrivacyPolicy(allowPersonalRemote: true, allowPersonalPrivateCloudCompute: true)
        for locality in [ProviderLocality.privateCloudCompute, .thirdPartyCloud] { #expect(!both.mayDispatch(.sensitive, to: locality)) }
    }

    @Test("Capabilities: locality is stored, isOnDevice reads and writes it, and the old initializer keeps its meaning")
    func capabilities() {
        #expect(ProviderCapabilities(isOnDevice: true, maxContextTokens: 8).locality == .device)
        #expect(ProviderCapabilities(isOnDevice: false, maxContextTokens: 8).locality == .thirdPartyCloud)
        var pcc = ProviderCapabilities(isOnDevice: false, maxContextTokens: 8, locality: .privateCloudCompute)
        #expect(!pcc.isOnDevice && pcc.locality == .privateCloudCompute)
        pcc.isOnDevice = false
        #expect(pcc.locality == .privateCloudCompute)
        pcc.isOnDevice = true
        #expect(pcc.locality == .device)
        pcc.isOnDevice = false
        #expect(pcc.locality == .thirdPartyCloud)
    }

    @Test("Eligibility names privacy for each place the policy closes")
    func eligibility() {
        let pcc = ProviderCandidate(id: "pcc", capabilities: ProviderCapabilities(isOnDevice: false, maxContextTokens: 8192,
                                                                                   locality: .privateCloudCompute))
        let request = GenerationRequest(prompt: "x", maxTokens: 10)
        func reason(_ level: PrivacyLevel, _ privacy: PrivacyPolicy) -> Ineligibility.Reason? {
            EligibilityPolicy(privacy: privacy).reasonToExclude(pcc, request: request, analysis: RequestAnalysis(privacy: level), device: .nominal)
        }
        #expect(reason(.public, PrivacyPolicy()) == nil)
        #expect(reason(.personal, PrivacyPolicy()) == .privacy)
        #expect(reason(.personal, PrivacyPolicy(allowPersonalPrivateCloudCompute: true)) == nil)
        #expect(reason(.sensitive, PrivacyPolicy(allowPersonalPrivateCloudCompute: true)) == .privacy)
    }

    @Test("The attempt machine re-checks at dispatch by place: personal passes to Private Cloud Compute when allowed, sensitive never")
    func dispatchRecheck() {
        let pcc = AttemptStateMachine.Candidate(id: "pcc", isOnDevice: false, maxContextTokens: 8192, locality: .privateCloudCompute)
        let cloud = AttemptStateMachine.Candidate(id: "cloud", isOnDevice: false, maxContextTokens: 8192)
        #expect(!pcc.isOnDevice && cloud.locality == .thirdPartyCloud)
        func first(_ level: PrivacyLevel, _ privacy: PrivacyPolicy) -> ProviderID? {
            var machine = AttemptStateMachine(candidates: [cloud, pcc], level: level, retry: RetryPolicy(maxAttemptsPerProvider: 1),
                                              privacy: privacy, streaming: false, maxResumes: 0, deadline: nil)
            if case .check(let id) = machine.start(now: .zero) { return id }
            return nil
        }
        #expect(first(.personal, PrivacyPolicy(allowPersonalPrivateCloudCompute: true)) == "pcc")
        #expect(first(.personal, PrivacyPolicy()) == nil)
        #expect(first(.sensitive, PrivacyPolicy(allowPersonalRemote: true, allowPersonalPrivateCloudCompute: true)) == nil)
        #expect(first(.public, PrivacyPolicy()) == "cloud")
    }
}
