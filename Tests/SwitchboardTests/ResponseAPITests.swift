import Switchboard
import SwitchboardTestKit
import Testing

/// The FoundationModels-shaped calls: `respond(to:)`, `respond(to:generating:)`, `streamResponse(to:)`
/// with cumulative snapshots, the routing facts on `Response`, routing events on their own sequence.
@Suite("Response API")
struct ResponseAPITests {
    struct City: Generable, Hashable {
        var name: String
        var country: String
        static var generationSchema: GenerationSchema { .object([.init("name", .string()), .init("country", .string())]) }
    }

    static func coordinator(_ providers: [any Provider], cache: Bool = false, retry: RetryPolicy = RetryPolicy(),
                            clock: some Clock<Duration> = ContinuousClock()) -> Coordinator {
        Coordinator(providers: providers, configuration: Fixture.configuration(retry: retry, cache: cache), clock: clock,
                    deviceState: FixedDeviceState())
    }

    static func texts(_ stream: ResponseStream<String>) async throws -> [String] {
        var texts: [String] = []
        for try await snapshot in stream { texts.append(snapshot.content) }
        return texts
    }

    @Test("respond(to:) answers with text and the routing facts: provider, privacy, usage, attempts, cache")
    func respondCarriesRoutingFacts() async throws {
        let coordinator = Self.coordinator([Fixture.local(), Fixture.remote()], cache: true)
        let answer = try await coordinator.respond(to: "What is the capital of France?")
        #expect(answer.content == "local answer" || answer.content == "remote answer")
        #expect(answer.rawContent == .string(answer.content))
        #expect(answer.attempts == 1 && !answer.cached && !answer.fallbackUsed && answer.privacy == .public)
        #expect(answer.usage.completionTokens == 2)
        let again = try await coordinator.respond(to: "What is the capital of France?")
        #expect(again.cached && again.content == answer.content && again.attempts == 0)

        let sensitive = try await coordinator.respond(to: "My card is 4111 1111 1111 1111, what is my balance?")
        #expect(sensitive.providerID == "local" && sensitive.privacy == .sensitive)
    }

    @Test("a fallback is on the response, and on events, never in the text")
    func fallbackOnResponseAndEvents() async throws {
        let failing = Fixture.remote("first", fault: .error(.unavailable("down")))
        let coordinator = Self.coordinator([failing, Fixture.remote("second", tokens: ["fine"])],
                                           retry: RetryPolicy(maxAttemptsPerProvider: 1))
        let stream = coordinator.streamResponse(to: GenerationRequest(prompt: "Hi", preferredProviders: ["first"]))
        let texts = try await Self.texts(stream)
        #expect(texts == ["fine"])
        let answer = try await stream.collect()
        #expect(answer.providerID == "second" && answer.fallbackFrom == "first" && answer.attempts == 2)
        var labels: [String] = []
        for await event in stream.events {
            switch event {
            case .analyzed(let analysis): labels.append("analyzed:\(analysis.privacy)")
            case .providerChosen(let id, let attempt): labels.append("chosen:\(id)#\(attempt)")
            case .fallback(let from, let to, _): labels.append("fallback:\(from)->\(to)")
            default: labels.append("other")
            }
        }
        #expect(labels == ["analyzed:public", "chosen:first#1", "fallback:first->second", "chosen:second#2"])
    }

    @Test("streamed snapshots are cumulative: across a mid-stream resume no text is lost or repeated")
    func snapshotsAcrossResume() async throws {
        let clock = ImmediateClock()
        let flaky = Fixture.local("flaky", tokens: ["one", " two", " three"], fault: .failAfterTokens(2, .transport("reset")), clock: clock)
        let backup = Fixture.local("backup", tokens: ["one", " two", " three"], clock: clock)
        let coordinator = Self.coordinator([flaky, backup], retry: RetryPolicy(maxAttemptsPerProvider: 1), clock: clock)
        let stream = coordinator.streamResponse(to: GenerationRequest(prompt: "count", preferredProviders: ["flaky"]))
        let texts = try await Self.texts(stream)
        #expect(!texts.isEmpty)
        #expect(zip(texts, texts.dropFirst()).allSatisfy { $1.hasPrefix($0) && $1 != $0 }, "\(texts)")
        #expect(texts.last == "one two three")
        let answer = try await stream.collect()
        #expect(answer.content == "one two three" && answer.resumes == 1 && answer.providerID == "backup")
        var resumed = false
        for await event in stream.events { if case .resumed(let from, let to, _, .whole) = event { resumed = from == "flaky" && to == "backup" } }
        #expect(resumed)
    }

    /// What a reader task has seen so far.
    actor Seen<Item: Sendable> {
        var items: [Item] = []
        func append(_ item: Item) { items.append(item) }
        var count: Int { items.count }
    }

    /// Reads `stream` in a task while the clock releases one token at a time, each after the reader
    /// has seen the one before (the snapshots buffer keeps only the newest: a lagging reader skips).
    static func paced<Content>(_ stream: ResponseStream<Content>, tokens: Int, clock: ManualClock) async throws
        -> [ResponseStream<Content>.Snapshot] {
        let seen = Seen<ResponseStream<Content>.Snapshot>()
        let reader = Task { for try await snapshot in stream { await seen.append(snapshot) } }
        for token in 1...tokens {
            #expect(await clock.waitForSleepers(1))
            clock.advance(by: .seconds(1))
            #expect(await Fixture.eventually { await seen.count == token })
        }
        try await reader.value
        return await seen.items
    }

    @Test("every token shows once: a reader that keeps up sees one snapshot per token")
    func snapshotPerToken() async throws {
        let clock = ManualClock()
        let paced = ScriptedProvider(id: "paced", capabilities: Fixture.localCapabilities(), output: .tokens(["a", "b", "c"]),
                                     timeToFirstToken: .seconds(1), tokenInterval: .seconds(1), clock: clock)
        let stream = Self.coordinator([paced], clock: clock).streamResponse(to: "letters")
        let snapshots = try await Self.paced(stream, tokens: 3, clock: clock)
        #expect(snapshots.map(\.content) == ["a", "ab", "abc"])
        #expect(snapshots.map(\.rawContent) == [.string("a"), .string("ab"), .string("abc")])
    }

    @Test("ending the iteration early cancels the request; collect() then throws")
    func breakCancels() async throws {
        let clock = ManualClock()
        let slow = ScriptedProvider(id: "slow", capabilities: Fixture.localCapabilities(), output: .tokens(["1", "2", "3", "4"]),
                                    timeToFirstToken: .seconds(1), tokenInterval: .seconds(1), clock: clock)
        let coordinator = Self.coordinator([slow], clock: clock)
        let stream = coordinator.streamResponse(to: "count")
        let reader = Task { () -> String? in
            for try await snapshot in stream { return snapshot.content }
            return nil
        }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(1))
        #expect(try await reader.value == "1")
        await #expect(throws: SwitchboardError.self) { try await stream.collect() }
        #expect(await Fixture.eventually { coordinator.requestCounts().cancelled == 1 })
        #expect(await Fixture.eventually { await slow.activeStreams == 0 })
    }

    @Test("a stream nobody iterates or collects is cancelled when dropped; a temporary one iterates to the end")
    func droppedStreamCancels() async throws {
        let clock = ManualClock()
        let slow = ScriptedProvider(id: "slow", capabilities: Fixture.localCapabilities(), output: .tokens(["1", "2"]),
                                    timeToFirstToken: .seconds(1), tokenInterval: .seconds(1), clock: clock)
        let coordinator = Self.coordinator([slow], clock: clock)
        _ = coordinator.streamResponse(to: "count")
        #expect(await Fixture.eventually { coordinator.requestCounts().cancelled == 1 })

        let reader = Task { () -> String in
            var last = ""
            for try await snapshot in coordinator.streamResponse(to: "count") { last = snapshot.content }
            return last
        }
        for _ in 0..<2 {
            #expect(await clock.waitForSleepers(1))
            clock.advance(by: .seconds(1))
        }
        #expect(try await reader.value == "12")
        #expect(coordinator.requestCounts().completed == 1)
    }

    @Test("a failure ends the iteration with the typed error, and collect() throws it too")
    func failureThrows() async throws {
        let coordinator = Self.coordinator([Fixture.remote(fault: .error(.unavailable("down")))], retry: RetryPolicy(maxAttemptsPerProvider: 1))
        let stream = coordinator.streamResponse(to: "Hi")
        await #expect(throws: SwitchboardError.self) { _ = try await Self.texts(stream) }
        await #expect(throws: SwitchboardError.self) { try await stream.collect() }
        await #expect(throws: SwitchboardError.self) { try await coordinator.respond(to: "Hi") }
    }

    @Test("respond(to:generating:) decodes the schema's answer; an invalid one is a typed error")
    func typedRespond() async throws {
        let local = ScriptedProvider(id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192,
                                                                                     supportsStructuredOutput: true),
                                     output: .tokens([#"{"name": "Paris", "#, #""country": "France"}"#]))
        let coordinator = Self.coordinator([local])
        let city = try await coordinator.respond(to: "Capital of France?", generating: City.self)
        #expect(city.content == City(name: "Paris", country: "France"))
        #expect(city.rawContent["name"] == .string("Paris") && city.providerID == "local")
        #expect(await local.receivedRequests.last?.request.output == .schema(City.generationSchema))

        await local.setOutput(.tokens([#"{"name": "Paris"}"#]))
        do {
            _ = try await coordinator.respond(to: "Capital of Spain?", generating: City.self)
            Issue.record("an answer without country decoded")
        } catch {
            guard case .invalidOutput(_, let text) = error else { Issue.record("expected invalidOutput, got \(error)"); return }
            #expect(text == #"{"name": "Paris"}"#)
        }
    }

    @Test("a typed stream shows partial values (nil until the JSON decodes), then the decoded answer")
    func typedStream() async throws {
        let clock = ManualClock()
        let local = ScriptedProvider(id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192,
                                                                                     supportsStructuredOutput: true),
                                     output: .tokens([#"{"name": "Pa"#, #"ris", "#, #""country": "Fr"#, #"ance"}"#]),
                                     timeToFirstToken: .seconds(1), tokenInterval: .seconds(1), clock: clock)
        let stream = Self.coordinator([local], clock: clock).streamResponse(to: "Capital of France?", generating: City.self)
        let snapshots = try await Self.paced(stream, tokens: 4, clock: clock)
        #expect(snapshots.map(\.rawContent["name"]) == [.string("Pa"), .string("Paris"), .string("Paris"), .string("Paris")])
        #expect(snapshots.map(\.content) == [nil, nil, City(name: "Paris", country: "Fr"), City(name: "Paris", country: "France")])
        let answer = try await stream.collect()
        #expect(answer.content == City(name: "Paris", country: "France"))
        #expect(answer.rawContent == snapshots.last?.rawContent, "the last snapshot is the answer, shown once")
    }

    @Test("GenerationOptions reach the request: the token limit and the temperature")
    func optionsShapeTheRequest() async throws {
        let local = Fixture.local()
        let coordinator = Self.coordinator([local])
        _ = try await coordinator.respond(to: "Hi", options: GenerationOptions(temperature: 0.7, maximumResponseTokens: 12))
        let request = try #require(await local.receivedRequests.last?.request)
        #expect(request.maxTokens == 12 && request.sampling.temperature == 0.7)
        #expect(request.messages.isEmpty && request.prompt == "Hi" && request.kind == .chat)
    }

    @Test("a provider's own concurrency sizes its slots, at init and when registered later")
    func concurrencyFromCapabilities() async {
        var capabilities = Fixture.localCapabilities()
        capabilities.maxConcurrency = 3
        let coordinator = Coordinator(providers: [ScriptedProvider(id: "batched", capabilities: capabilities)], deviceState: FixedDeviceState())
        #expect(await coordinator.loadBalancer.limit(for: "batched") == 3)
        capabilities.maxConcurrency = 5
        await coordinator.register(ScriptedProvider(id: "later", capabilities: capabilities))
        #expect(await coordinator.loadBalancer.limit(for: "later") == 5)
        let named = Coordinator(configuration: SwitchboardConfiguration(concurrency: ["later": 2]), deviceState: FixedDeviceState())
        await named.register(ScriptedProvider(id: "later", capabilities: capabilities))
        #expect(await named.loadBalancer.limit(for: "later") == 2, "the configuration's limit wins")
    }
}
