import Testing
import SwitchboardCore

@Suite struct CacheKeyTests {
    func key(_ request: GenerationRequest, _ privacy: PrivacyLevel = .public) -> CacheKey {
        CacheKey(request: request, privacy: privacy)
    }

    @Test func whitespaceVariantsAreEqual() {
        let a = key(GenerationRequest(prompt: "What is   the\ncapital of\tFrance? "))
        let b = key(GenerationRequest(prompt: "  What is the capital of France?"))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(CacheKey.normalizedWhitespace(" \n a \t b \r\n") == "a b")
    }

    @Test func generationSettingsAndRoutingMatter() {
        let base = GenerationRequest(prompt: "hello")
        var longer = base; longer.maxTokens = 512
        var warmer = base; warmer.sampling.temperature = 0.7
        var stopped = base; stopped.sampling.stopSequences = ["\n"]
        var excluding = base; excluding.excludedProviders = ["remote"]
        var preferring = base; preferring.preferredProviders = ["local"]
        var structured = base; structured.output = .jsonSchema("{\"type\":\"object\"}")
        var chat = base; chat.messages = [ChatMessage(.system, "be brief")]
        for variant in [longer, warmer, stopped, excluding, preferring, structured, chat] {
            #expect(key(variant) != key(base))
        }
        #expect(key(base, .public) != key(base, .contextual))
    }

    @Test func priorityAndBudgetDoNotMatter() {
        var urgent = GenerationRequest(prompt: "hello")
        urgent.priority = .high
        urgent.latencyBudget = .milliseconds(100)
        #expect(key(urgent) == key(GenerationRequest(prompt: "hello")))
    }

    @Test func descriptionHidesTheText() {
        let k = key(GenerationRequest(prompt: "my password is hunter2"))
        #expect(!k.description.contains("hunter2"))
        #expect(!String(describing: k).contains("hunter2"))
    }

    @Test func messageRolesMatter() {
        let user = key(GenerationRequest(messages: [ChatMessage(.user, "hi")]))
        let assistant = key(GenerationRequest(messages: [ChatMessage(.assistant, "hi")]))
        #expect(user != assistant)
    }
}
