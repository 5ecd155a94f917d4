import Synchronization
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
import Testing

/// `Session`: the transcript grows by prompt and answer, privacy follows the conversation, the next
/// turn prefers the provider that answered, and a long transcript is trimmed or refused.
@Suite struct SessionTests {
    @Test("once a turn is sensitive, every later turn stays on device, even a public one")
    func privacyFollowsTheConversation() async throws {
        let remote = RecordingProvider(wrapping: Fixture.remote())
        let local = RecordingProvider(wrapping: Fixture.local())
        let coordinator = Coordinator(providers: [local, remote], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        // The app prefers the remote: public turns go there while they may.
        let session = Session(coordinator: coordinator, instructions: "Be brief.", options: .init(preferredProviders: ["remote"]))
        let public1 = try await session.respond(to: "What is the capital of France?")
        #expect(public1.providerID == "remote")
        let sensitive = try await session.respond(to: "My SSN is 219-09-9999. Should I give it to my landlord?")
        #expect(sensitive.providerID == "local" && sensitive.privacy == .sensitive)
        let later = try await session.respond(to: "And what is the weather like in spring?")
        #expect(later.providerID == "local")
        #expect(later.privacy == .sensitive)
        #expect(await session.privacy == .sensitive)
        #expect(await remote.callCount == 1)
        // The transcript: instructions, then prompt and answer per turn; each request carried it all.
        #expect(await session.transcript.count == 7)
        let lastRequest = try #require(await local.receivedRequests.last?.request)
        #expect(lastRequest.messages.map(\.role) == [.system, .user, .assistant, .user, .assistant, .user])
    }

    @Test("the next turn prefers the provider that answered the last one (its cache is warm)")
    func prefersTheLastProvider() async throws {
        let a = RecordingProvider(wrapping: Fixture.local("local-a")), b = RecordingProvider(wrapping: Fixture.local("local-b"))
        let session = Session(coordinator: Coordinator(providers: [a, b], configuration: Fixture.configuration(), deviceState: FixedDeviceState()))
        let first = try await session.respond(to: "Hello there.")
        let second = try await session.respond(to: "And again.")
        #expect(second.providerID == first.providerID)
        let preferred = try #require(await (first.providerID == "local-a" ? a : b).receivedRequests.last?.request.preferredProviders)
        #expect(preferred == [first.providerID])
    }

    @Test("a transcript past the context drops its oldest turns, keeping the instructions, or fails when asked to")
    func trimmingOrFailing() async throws {
        let local = RecordingProvider(wrapping: Fixture.local())
        let coordinator = Coordinator(providers: [local], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        let long = String(repeating: "word ", count: 80)  // about 100 estimated tokens per turn
        let trimming = Session(coordinator: coordinator, instructions: "Keep me.", options: .init(maxTokens: 16, contextTokens: 300))
        for _ in 0..<5 { _ = try await trimming.respond(to: long) }
        let sent = try #require(await local.receivedRequests.last?.request.messages)
        #expect(sent.first?.role == .system && sent.first?.content == "Keep me.")
        #expect(sent.count < 1 + 2 * 4 + 1)
        #expect(sent.last?.role == .user)
        let strict = Session(coordinator: coordinator, options: .init(maxTokens: 16, contextTokens: 150, overflow: .fail))
        _ = try await strict.respond(to: long)
        await #expect(throws: SessionError.self) { _ = try await strict.respond(to: long) }
    }
}


extension SessionTests {
    struct City: Generable {
        var name: String
        static var generationSchema: GenerationSchema { .object([.init("name", .string())]) }
    }

    @Test("a typed turn decodes the answer and records its JSON in the transcript")
    func typedTurn() async throws {
        let local = ScriptedProvider(id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192,
                                                                                     supportsStructuredOutput: true),
                                     output: .tokens(["{\"name\": ", "\"Paris\"}"]))
        let session = Session(coordinator: Coordinator(providers: [local], configuration: Fixture.configuration(), deviceState: FixedDeviceState()))
        let answer = try await session.respond(to: "Which city is the capital of France?", generating: City.self)
        #expect(answer.content.name == "Paris")
        #expect(await session.transcript.last == .response("{\"name\": \"Paris\"}", provider: "local"))
    }
}

/// The tool loop with a scripted structured-output provider.
@Suite struct SessionToolTests {
    struct Weather: Tool {
        struct Arguments: Generable {
            var city: String
            static var generationSchema: GenerationSchema { .object([.init("city", .string())]) }
        }
        let calls = Counter()
        var name: String { "weather" }
        var description: String { "The weather in a city." }
        func call(arguments: Arguments) async throws -> String {
            calls.add()
            if arguments.city == "Atlantis" { throw ToolFailure.noSuchCity }
            return "sunny in \(arguments.city)"
        }
    }
    enum ToolFailure: Error { case noSuchCity }
    final class Counter: Sendable {
        private let value = Lock(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// Picks `weather` once (for `city`), then `none`, then answers in text.
    static func model(city: String) -> ScriptedProvider {
        let picked = Counter()
        let capabilities = ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192, supportsStructuredOutput: true)
        return ScriptedProvider(id: "local", capabilities: capabilities, output: .custom { call in
            guard case .jsonSchema(let schema) = call.request.output else { return ["It", " is", " sunny", "."] }
            if schema.contains("\"none\"") {
                picked.add()
                return [picked.count == 1 ? "{\"tool\": \"weather\"}" : "{\"tool\": \"none\"}"]
            }
            return ["{\"city\": \"\(city)\"}"]
        })
    }

    @Test("the model calls the tool, the call and its result enter the transcript, then it answers")
    func toolLoop() async throws {
        let weather = Weather()
        let session = Session(coordinator: Coordinator(providers: [Self.model(city: "Paris")], configuration: Fixture.configuration(),
                                                       deviceState: FixedDeviceState()),
                              instructions: "Be brief.", tools: [weather])
        let answer = try await session.respond(to: "What is the weather in Paris?")
        #expect(answer.content == "It is sunny.")
        #expect(weather.calls.count == 1)
        let entries = await session.transcript
        #expect(entries.contains(.toolCall(name: "weather", arguments: "{\"city\":\"Paris\"}")))
        #expect(entries.contains(.toolResult(name: "weather", output: "sunny in Paris")))
        #expect(entries.last == .response("It is sunny.", provider: "local"))
    }

    @Test("a tool that throws becomes a result the model reads, not a crash")
    func throwingTool() async throws {
        let session = Session(coordinator: Coordinator(providers: [Self.model(city: "Atlantis")], configuration: Fixture.configuration(),
                                                       deviceState: FixedDeviceState()),
                              tools: [Weather()])
        _ = try await session.respond(to: "Weather in Atlantis?")
        let result = await session.transcript.first { if case .toolResult = $0 { true } else { false } }
        guard case .toolResult(_, let output, _, let isError)? = result else { Issue.record("no tool result"); return }
        #expect(output.hasPrefix("error:"))
        #expect(isError, "a throwing tool is a typed error result")
    }
}
