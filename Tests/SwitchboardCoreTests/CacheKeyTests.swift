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

/// Tool turns are part of what the analyzer reads and what the cache key compares.
@Suite struct ToolMessageTests {
    static let call = ToolCall(id: "c1", name: "lookup", arguments: #"{"name":"Ada"}"#)

    @Test("a sensitive tool result or call argument makes the request sensitive")
    func analyzerReadsToolTurns() throws {
        let analyzer = ContentAnalyzer()
        let result = GenerationRequest(messages: [ChatMessage(.user, "Find Ada."), .assistant(toolCalls: [Self.call]),
                                                  .tool(ToolResult(callID: "c1", name: "lookup", output: "Her SSN is 219-09-9999."))])
        #expect(try analyzer.analyze(result).privacy == .sensitive)
        let argument = GenerationRequest(messages: [ChatMessage(.user, "Find her."),
            .assistant(toolCalls: [ToolCall(id: "c2", name: "lookup", arguments: #"{"ssn":"219-09-9999"}"#)])])
        #expect(try analyzer.analyze(argument).privacy == .sensitive)
        #expect(argument.allText.contains(#"{"ssn":"219-09-9999"}"#))
    }

    @Test("requests that differ only in tools or tool turns have different cache keys")
    func cacheKeySeesTools() {
        let plain = GenerationRequest(messages: [ChatMessage(.user, "Weather?")])
        var withTools = plain
        withTools.tools = [ToolDefinition(name: "weather", description: "", parameters: .object([]))]
        var otherResult = plain
        otherResult.messages.append(.tool(ToolResult(callID: "c1", name: "weather", output: "sunny")))
        var errorResult = plain
        errorResult.messages.append(.tool(ToolResult(callID: "c1", name: "weather", output: "sunny", isError: true)))
        let keys = [plain, withTools, otherResult, errorResult].map { CacheKey(request: $0, privacy: .public) }
        #expect(Set(keys).count == 4)
    }

    @Test("a tool definition's name must suit every API")
    func definitionProblems() {
        #expect(ToolDefinition(name: "get_weather-2", description: "", parameters: .object([])).problem == nil)
        #expect(ToolDefinition(name: "get weather", description: "", parameters: .object([])).problem != nil)
        #expect(ToolDefinition(name: String(repeating: "a", count: 65), description: "", parameters: .object([])).problem != nil)
        #expect(ToolDefinition(name: "list", description: "", parameters: .array(of: .string())).problem != nil)
    }
}
