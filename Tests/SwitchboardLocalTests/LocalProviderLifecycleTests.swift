import Foundation
import SwitchboardCore
import SwitchboardTestKit
import Testing
@testable import SwitchboardLocal

/// The provider's lifecycle, queueing and errors with a scripted engine (no model needed).
@Suite("Local provider with a scripted engine")
struct LocalProviderLifecycleTests {
    struct Fixture {
        let file: FakeModelFile
        let loader: ScriptedLoader
        let clock = ManualClock()
        let provider: LocalModelProvider

        init(engine: ScriptedEngine = ScriptedEngine(), gate: Gate? = nil, sha256: String? = nil,
             idleTimeout: Duration? = .seconds(60), deviceState: (any DeviceStateProviding)? = nil) throws {
            file = try FakeModelFile(architecture: "gemma3", contextLength: 2048)
            loader = ScriptedLoader(engine: engine, gate: gate)
            provider = LocalModelProvider(configuration: file.configuration(sha256: sha256), modelPath: file.path,
                                          loader: loader, verifier: ModelVerifier(), idleTimeout: idleTimeout,
                                          deviceState: deviceState, pressurePollInterval: .seconds(1), clock: clock)
        }
    }

    static func request(_ prompt: String, maxTokens: Int = 4, stop: [String] = []) -> ProviderRequest {
        ProviderRequest(request: GenerationRequest(prompt: prompt, maxTokens: maxTokens,
                                                   sampling: SamplingOptions(stopSequences: stop)),
                        analysis: RequestAnalysis(privacy: .public))
    }

    static func collect(_ provider: LocalModelProvider, _ request: ProviderRequest) async throws -> (String, FinishReason, TokenUsage?) {
        var text = ""
        for try await event in await provider.generate(request) {
            switch event {
            case .token(let piece): text += piece
            case .finished(let reason, let usage): return (text, reason, usage)
            case .toolCall: Issue.record("the local provider calls no tools natively")
            }
        }
        throw ProviderError.malformedResponse("no finished event")
    }

    /// Lets spawned tasks (and the verifier's Dispatch worker) run until `condition` holds: polls with
    /// 1 ms naps, at most ~5 s, so a broken condition fails the test rather than hanging it.
    static func settle(_ condition: () async -> Bool) async {
        for _ in 0..<5000 where !(await condition()) { try? await Task.sleep(for: .milliseconds(1)) }
    }

    @Test("identity and capabilities: local id, on device, context from the file, no images")
    func capabilities() throws {
        let fixture = try Fixture()
        defer { fixture.file.remove() }
        #expect(fixture.provider.id.rawValue.hasPrefix("local"))
        #expect(fixture.provider.capabilities.isOnDevice)
        #expect(fixture.provider.capabilities.maxContextTokens == 2048)
        #expect(!fixture.provider.capabilities.supportsImages && !fixture.provider.capabilities.supportsStructuredOutput)
    }

    @Test("a cold request loads the model, then answers with usage")
    func coldRequest() async throws {
        let fixture = try Fixture()
        defer { fixture.file.remove() }
        #expect(await fixture.provider.availability() == .notLoaded)
        let (text, reason, usage) = try await Self.collect(fixture.provider, Self.request("hello there", maxTokens: 3))
        #expect(text == " HELLO THERE t2")
        #expect(reason == .length)
        #expect(usage == TokenUsage(promptTokens: 3, completionTokens: 3))
        #expect(await fixture.provider.availability() == .ready)
        #expect(fixture.loader.loadCount == 1)
    }

    @Test("load() reports verifying, loading and ready in order")
    func loadProgress() async throws {
        let fixture = try Fixture()
        defer { fixture.file.remove() }
        var phases: [LoadProgress] = []
        for await progress in await fixture.provider.load() { phases.append(progress) }
        #expect(phases.first?.phase == .verifying)
        #expect(phases.last == LoadProgress(phase: .ready, fraction: 1))
        #expect(zip(phases, phases.dropFirst()).allSatisfy { $0.fraction <= $1.fraction })
        // Already loaded: one final event at once.
        var again: [LoadProgress] = []
        for await progress in await fixture.provider.load() { again.append(progress) }
        #expect(again == [LoadProgress(phase: .ready, fraction: 1)])
    }

    @Test("requests arriving during a load wait for it; the model loads once")
    func waitDuringLoad() async throws {
        let gate = Gate()
        let fixture = try Fixture(gate: gate)
        defer { fixture.file.remove() }
        let provider = fixture.provider
        async let first = Self.collect(provider, Self.request("one", maxTokens: 1))
        async let second = Self.collect(provider, Self.request("two", maxTokens: 1))
        await Self.settle { await provider.lifecycleWaiting() == 2 }
        guard case .loading = await provider.availability() else { Issue.record("expected loading"); return }
        await gate.release()
        #expect(try await first.0 == " ONE")
        #expect(try await second.0 == " TWO")
        #expect(fixture.loader.loadCount == 1)
    }

    @Test("a request cancelled while the model loads leaves when the load ends, counted out")
    func cancelledWhileLoading() async throws {
        let gate = Gate()
        let fixture = try Fixture(gate: gate)
        defer { fixture.file.remove() }
        let provider = fixture.provider
        let waiting = Task { try await Self.collect(provider, Self.request("late", maxTokens: 1)) }
        await Self.settle { await provider.lifecycleWaiting() == 1 }
        waiting.cancel()
        await gate.release()
        await #expect(throws: (any Error).self) { try await waiting.value }
        // The consumer's stream ends at once; the request itself leaves once the load it awaits ends.
        await Self.settle {
            let active = await provider.lifecycleActive()
            return await provider.state == .ready && active == 0
        }
        #expect(await provider.lifecycleActive() == 0)
        #expect(await provider.lifecycleWaiting() == 0)
        #expect(await provider.state == .ready)
        let (text, _, _) = try await Self.collect(provider, Self.request("next", maxTokens: 1))
        #expect(text == " NEXT")
    }

    @Test("concurrent requests all reach the engine: the provider keeps no queue of its own")
    func admissionIsTheEngines() async throws {
        let gate = Gate()
        let engine = ScriptedEngine(gate: gate)
        let fixture = try Fixture(engine: engine)
        defer { fixture.file.remove() }
        let provider = fixture.provider
        try await provider.loadAndWait()
        let words = ["alpha", "beta", "gamma", "delta"]
        async let texts = withThrowingTaskGroup(of: String.self) { group in
            for word in words {
                group.addTask { try await Self.collect(provider, Self.request(word, maxTokens: 2)).0 }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // All four are inside the engine before any produces a token.
        await Self.settle { engine.generationsStarted == words.count }
        #expect(engine.generationsRunning == words.count)
        await gate.release()
        #expect(Set(try await texts) == [" ALPHA t1", " BETA t1", " GAMMA t1", " DELTA t1"])
        #expect(engine.peakConcurrency == words.count)
        #expect(await provider.lifecycleActive() == 0)
    }

    @Test("cancelling mid-generation stops it and frees the slot for the next request")
    func cancellation() async throws {
        let engine = ScriptedEngine(tokenDelay: .milliseconds(2))
        let fixture = try Fixture(engine: engine)
        defer { fixture.file.remove() }
        let provider = fixture.provider
        let long = Task {
            var pieces = 0
            for try await event in await provider.generate(Self.request("go", maxTokens: 400)) {
                if case .token = event { pieces += 1 }
            }
            return pieces
        }
        await Self.settle { await provider.statistics.loads == 1 && engine.generationsStarted == 1 }
        long.cancel()
        let received = (try? await long.value) ?? 0
        #expect(received < 400)
        let (text, _, _) = try await Self.collect(provider, Self.request("next", maxTokens: 1))
        #expect(text == " NEXT")
        await Self.settle { await provider.statistics.cancelledGenerations == 1 }
        let statistics = await provider.statistics
        #expect(statistics.cancelledGenerations == 1, "\(statistics)")
        #expect(engine.generationsRunning == 0)
    }

    @Test("idle timeout unloads; the next request reloads and answers")
    func idleUnloadAndReload() async throws {
        let fixture = try Fixture(idleTimeout: .seconds(60))
        defer { fixture.file.remove() }
        let provider = fixture.provider
        _ = try await Self.collect(provider, Self.request("first", maxTokens: 1))
        await Self.settle { fixture.clock.sleeperCount == 1 }
        fixture.clock.advance(by: .seconds(59))
        #expect(await provider.state == .ready)
        fixture.clock.advance(by: .seconds(1))
        await Self.settle { await provider.state == .notLoaded }
        #expect(await provider.state == .notLoaded)
        #expect(await provider.statistics.unloads == 1)
        let (text, _, _) = try await Self.collect(provider, Self.request("again", maxTokens: 1))
        #expect(text == " AGAIN")
        #expect(fixture.loader.loadCount == 2)
    }

    @Test("critical memory pressure unloads and refuses loads until it eases")
    func memoryPressure() async throws {
        let device = ChangingDeviceState()
        let fixture = try Fixture(idleTimeout: nil, deviceState: device)
        defer { fixture.file.remove() }
        let provider = fixture.provider
        try await provider.loadAndWait()
        await device.set(.critical)
        await Self.settle { fixture.clock.sleeperCount == 1 }
        fixture.clock.advance(by: .seconds(1))
        await Self.settle { await provider.state == .notLoaded }
        #expect(await provider.state == .notLoaded)
        guard case .unavailable = await provider.availability() else { Issue.record("expected unavailable"); return }
        await #expect(throws: ProviderError.self) { try await Self.collect(provider, Self.request("x")) }
        await device.set(.normal)
        let (text, _, _) = try await Self.collect(provider, Self.request("back", maxTokens: 1))
        #expect(text == " BACK")
    }

    @Test("explicit unload waits for a running request, and a new request reloads")
    func explicitUnload() async throws {
        let fixture = try Fixture()
        defer { fixture.file.remove() }
        let provider = fixture.provider
        try await provider.loadAndWait()
        await provider.unload()
        #expect(await provider.state == .notLoaded)
        _ = try await Self.collect(provider, Self.request("reload", maxTokens: 1))
        #expect(fixture.loader.loadCount == 2)
    }

    @Test("a file with the wrong checksum fails the load; the provider reports why")
    func badChecksum() async throws {
        let fixture = try Fixture(sha256: String(repeating: "a", count: 64))
        defer { fixture.file.remove() }
        let provider = fixture.provider
        await #expect(throws: ProviderError.self) { try await Self.collect(provider, Self.request("x")) }
        guard case .unavailable(let reason) = await provider.availability() else { Issue.record("expected unavailable"); return }
        #expect(reason.contains("checksum"))
        do { try await provider.loadAndWait(); Issue.record("expected a checksum error") } catch {
            guard case .checksumMismatch = error else { Issue.record("got \(error)"); return }
        }
        #expect(fixture.loader.loadCount == 0)
    }

    @Test("a prompt beyond the context is a typed, fallback-only error")
    func contextExceeded() async throws {
        let fixture = try Fixture(engine: ScriptedEngine(contextLength: 16))
        defer { fixture.file.remove() }
        let prompt = Array(repeating: "w", count: 20).joined(separator: " ")
        do { _ = try await Self.collect(fixture.provider, Self.request(prompt, maxTokens: 4)); Issue.record("expected an error") }
        catch let error as ProviderError {
            #expect(error == .contextLengthExceeded(limit: 16, requested: 25))
            #expect(error.classification == .fallbackOnly)
        }
        #expect(await fixture.provider.lifecycleActive() == 0)
    }

    @Test("stop sequences end the reply before the stop text")
    func stopSequences() async throws {
        let fixture = try Fixture()
        defer { fixture.file.remove() }
        let (text, reason, usage) = try await Self.collect(fixture.provider, Self.request("a b STOP c", maxTokens: 8, stop: [" ST"]))
        #expect(text == " A B")
        #expect(reason == .stop)
        #expect(usage?.completionTokens == 3)
    }

    @Test("a consumer that reads only after generation ended still gets every piece and finished")
    func lateConsumer() async throws {
        let engine = ScriptedEngine(tokenDelay: .zero, tail: "!z")
        let fixture = try Fixture(engine: engine)
        defer { fixture.file.remove() }
        let provider = fixture.provider
        try await provider.loadAndWait()
        let stream = await provider.generate(Self.request("a b c", maxTokens: 3, stop: ["zzz"]))
        await Self.settle { await provider.statistics.generations == 1 }
        var pieces: [String] = []
        var finished = false
        for try await event in stream {
            switch event {
            case .token(let piece): pieces.append(piece)
            case .finished: finished = true
            case .toolCall: Issue.record("the local provider calls no tools natively")
            }
        }
        #expect(pieces.joined() == " A B C!z")
        #expect(finished)
    }

    @Test("a missing model file makes the provider unavailable with the fetch hint")
    func missingFile() async {
        let provider = LocalModelProvider(modelPath: "/nonexistent/model.gguf", loader: ScriptedLoader())
        guard case .unavailable(let reason) = await provider.availability() else { Issue.record("expected unavailable"); return }
        #expect(reason.contains("Scripts/fetch-model.sh"))
    }
}

extension LocalModelProvider {
    func lifecycleWaiting() -> Int { lifecycle.waitingRequests }
    func lifecycleActive() -> Int { lifecycle.activeRequests }
}
