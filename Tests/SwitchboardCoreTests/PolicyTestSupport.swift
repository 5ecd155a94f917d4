import SwitchboardCore

/// Small builders shared by the policy tests.
enum PolicyFixtures {
    static let local = ProviderCandidate(
        id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 2048,
                                                        expectedTimeToFirstToken: .milliseconds(100), expectedTokensPerSecond: 60))
    static let remote = ProviderCandidate(
        id: "remote", capabilities: ProviderCapabilities(isOnDevice: false, maxContextTokens: 128_000, supportsImages: true,
                                                         supportsStructuredOutput: true,
                                                         pricing: TokenPricing(inputPerMillion: 1, outputPerMillion: 4),
                                                         expectedTimeToFirstToken: .milliseconds(400), expectedTokensPerSecond: 80))

    static func analysis(_ privacy: PrivacyLevel, promptTokens: Int = 20, images: Int = 0,
                         structured: Bool = false) -> RequestAnalysis {
        RequestAnalysis(privacy: privacy, estimatedPromptTokens: promptTokens, imageCount: images,
                        wantsStructuredOutput: structured)
    }
}
