import Synchronization
import Switchboard
import SwitchboardTestKit
import Testing

/// The native tool loop of a session, with a scripted remote that calls tools the way the remote
/// wire formats report them (`ProviderEvent.toolCall`).
@Suite struct SessionNativeToolTests {
    typealias Weather = SessionToolTests.Weather

    /// A remote model that calls `weather` with `arguments` until it sees a result (or, `always`,
    /// every time it may), then answers in text.
    static func remote(arguments: String = #"{"city":"Paris"}"#, always: Bool = false) -> ScriptedProvider {
        var capabilities = Fixture.remoteCapabilities()
        capabilities.supportsToolCalling = true
        return ScriptedProvider(id: "remote", capabilities: capabilities, output: .turn { call in
            let request = call.request
            let results = request.messages.filter { $0.role == .tool }.count
            guard request.toolChoice == .auto, always || results == 0 else { return ScriptedTurn(tokens: ["It", " is", " sunny", "."]) }
            return ScriptedTurn(toolCalls: [ToolCall(id: "c\(results + 1)", name: "weather", arguments: arguments)])
        })
    }

    @Test("the model calls the tool natively; the validated call runs, its result is in the transcript and the next request")
    func nativeLoop() async throws {
        let remote = Self.remote()
        let weather = Weather()
        let session = Session(coordinator: Coordinator(providers: [remote], configuration: Fixture.configuration(), deviceState: FixedDeviceState()),
                              instructions: "Be brief.", tools: [weather])
        let answer = try await session.respond(to: "What is the weather in Paris?")
        #expect(answer.content == "It is sunny.")
        #expect(weather.calls.count == 1)
        #expect(await session.transcript == [
            .instructions("Be brief."), .prompt("What is the weather in Paris?"),
            .toolCall(name: "weather", arguments: #"{"city":"Paris"}"#, id: "c1"),
            .toolResult(name: "weather", output: "sunny in Paris", id: "c1"),
            .response("It is sunny.", provider: "remote"),
        ])
        let requests = await remote.receivedRequests.map(\.request)
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.tools.map(\.name) == ["weather"] })
        #expect(requests.first?.messages.first?.content == "Be brief.", "native: the tools travel as definitions, not instructions")
        let second = try #require(requests.last?.messages)
        #expect(second.map(\.role) == [.system, .user, .assistant, .tool])
        #expect(second[2].toolCalls == [ToolCall(id: "c1", name: "weather", arguments: #"{"city":"Paris"}"#)])
        #expect(second[3].content == "sunny in Paris" && second[3].toolCallID == "c1" && second[3].toolName == "weather")
    }

    @Test("arguments that do not follow the tool's schema are refused before the tool runs")
    func invalidArguments() async throws {
        let remote = Self.remote(arguments: #"{"town":"Paris"}"#)
        let weather = Weather()
        let session = Session(coordinator: Coordinator(providers: [remote], configuration: Fixture.configuration(),
                                                       deviceState: FixedDeviceState()), tools: [weather])
        _ = try await session.respond(to: "What is the weather in Paris?")
        #expect(weather.calls.count == 0)
        let result = await session.transcript.first { if case .toolResult = $0 { true } else { false } }
        guard case .toolResult(_, let output, let id, let isError)? = result else { Issue.record("no tool result"); return }
        #expect(isError && id == "c1")
        #expect(output.contains("refused") && output.contains("did not run"))
        let sent = try #require(await remote.receivedRequests.last?.request.messages.last)
        #expect(sent.role == .tool && sent.isToolError, "the model reads the typed error")
    }

    @Test("a tool that throws becomes an error result the model reads")
    func throwingTool() async throws {
        let session = Session(coordinator: Coordinator(providers: [Self.remote(arguments: #"{"city":"Atlantis"}"#)],
                                                       configuration: Fixture.configuration(), deviceState: FixedDeviceState()), tools: [Weather()])
        let answer = try await session.respond(to: "Weather in Atlantis?")
        #expect(answer.content == "It is sunny.")
        let result = await session.transcript.first { if case .toolResult = $0 { true } else { false } }
        guard case .toolResult(_, let output, _, let isError)? = result else { Issue.record("no tool result"); return }
        #expect(isError && output.contains("weather failed") && output.contains("noSuchCity"))
    }

    @Test("a model that keeps calling stops after maxToolRounds and then must answer in text")
    func roundLimit() async throws {
        let remote = Self.remote(always: true)
        let weather = Weather()
        let session = Session(coordinator: Coordinator(providers: [remote], configuration: Fixture.configuration(), deviceState: FixedDeviceState()),
                              tools: [weather], maxToolRounds: 2)
        let answer = try await session.respond(to: "Weather?")
        #expect(answer.content == "It is sunny.")
        #expect(weather.calls.count == 2)
        let requests = await remote.receivedRequests.map(\.request)
        #expect(requests.map(\.toolChoice) == [.auto, .auto, .none])
    }

    @Test("a sensitive tool result keeps the rest of the conversation on device")
    func sensitiveResultStaysOnDevice() async throws {
        struct Lookup: Tool {
            struct Arguments: Generable {
                var name: String
                static var generationSchema: GenerationSchema { .object([.init("name", .string())]) }
            }
            var name: String { "lookup" }
            var description: String { "Looks up the customer." }
            func call(arguments: Arguments) async throws -> String { "The customer's SSN is 219-09-9999." }
        }
        var capabilities = Fixture.remoteCapabilities()
        capabilities.supportsToolCalling = true
        let scripted = ScriptedProvider(id: "remote", capabilities: capabilities, output: .turn { _ in
            ScriptedTurn(toolCalls: [ToolCall(id: "c1", name: "lookup", arguments: #"{"name":"Ada"}"#)])
        })
        let remote = RecordingProvider(wrapping: scripted)
        var localCapabilities = Fixture.localCapabilities()
        localCapabilities.supportsStructuredOutput = true
        let local = ScriptedProvider(id: "local", capabilities: localCapabilities, output: .custom { call in
            if case .jsonSchema = call.request.output { return [#"{"tool": "none"}"#] }
            return ["On", " device", "."]
        })
        let session = Session(coordinator: Coordinator(providers: [local, remote], configuration: Fixture.configuration(),
                                                       deviceState: FixedDeviceState()),
                              tools: [Lookup()], options: .init(preferredProviders: ["remote"]))
        let answer = try await session.respond(to: "Find Ada's record.")
        #expect(answer.providerID == "local" && answer.content == "On device.")
        #expect(answer.privacy == .sensitive)
        let later = try await session.respond(to: "Thanks, what is the capital of France?")
        #expect(later.providerID == "local")
        #expect(await remote.receivedRequests.count == 1, "nothing after the sensitive result reached the remote")
        #expect(await session.privacy == .sensitive)
    }

    @Test("streamResponse: the calls and results on events, the answer's text as snapshots")
    func streamedEvents() async throws {
        let session = Session(coordinator: Coordinator(providers: [Self.remote()], configuration: Fixture.configuration(),
                                                       deviceState: FixedDeviceState()),
                              tools: [Weather()])
        let stream = await session.streamResponse(to: "What is the weather in Paris?")
        var snapshots: [String] = []
        for try await snapshot in stream { snapshots.append(snapshot.content) }
        var events: [RoutingEvent] = []
        for await event in stream.events { events.append(event) }
        let tools = events.compactMap { event -> String? in
            switch event {
            case .toolCall(let call): "call:\(call.name)"
            case .toolResult(let result): "result:\(result.name)"
            default: nil
            }
        }
        #expect(tools == ["call:weather", "result:weather"])
        #expect(events.filter { if case .analyzed = $0 { true } else { false } }.count == 2, "one analysis per round")
        guard case .toolResult(let result)? = events.first(where: { if case .toolResult = $0 { true } else { false } }) else {
            Issue.record("no toolResult event"); return
        }
        #expect(result == ToolResult(callID: "c1", name: "weather", output: "sunny in Paris"))
        // Cumulative: a lagging reader may skip snapshots, but each one extends the one before.
        #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $1.hasPrefix($0) })
        #expect(snapshots.last == "It is sunny.")
        let answer = try await stream.collect()
        #expect(answer.content == "It is sunny." && answer.providerID == "remote")
        #expect(await session.transcript.count == 4)
    }
}
