import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("TestKit")
struct RuntimeTestKitTests {
    actor Order { var woken: [Int] = []; func add(_ n: Int) { woken.append(n) } }

    @Test("ManualClock wakes sleepers when their deadline comes, earliest first")
    func manualClockOrder() async throws {
        let clock = ManualClock()
        let order = Order()
        var tasks: [Task<Void, any Error>] = []
        for seconds in [3, 1, 2] {
            tasks.append(Task { try await clock.sleep(for: .seconds(seconds)); await order.add(seconds) })
        }
        #expect(await clock.waitForSleepers(3))
        clock.advance(by: .milliseconds(1500))
        try await tasks[1].value
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(5))
        for task in tasks { try await task.value }
        #expect(await order.woken.first == 1)
        #expect(Set(await order.woken) == [1, 2, 3])
        #expect(clock.now.offset == .milliseconds(6500))
    }

    @Test("A cancelled sleeper throws and leaves the clock")
    func manualClockCancel() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        #expect(await clock.waitForSleepers(1))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        let early = Task { withUnsafeCurrentTask { $0?.cancel() }; try await clock.sleep(for: .seconds(1)) }
        await #expect(throws: CancellationError.self) { try await early.value }
    }

    @Test("ScriptedProvider: echo, maxTokens, call count and recorded requests")
    func scripted() async throws {
        let provider = ScriptedProvider(id: "echo", output: .echo)
        let request = ProviderRequest(request: GenerationRequest(prompt: "one two three", maxTokens: 2),
                                      analysis: RequestAnalysis(privacy: .public))
        var events: [ProviderEvent] = []
        for try await event in await provider.generate(request) { events.append(event) }
        #expect(events == [.token("one"), .token(" two"), .finished(.length, TokenUsage(promptTokens: 0, completionTokens: 2))])
        #expect(await provider.callCount == 1)
        #expect(await provider.receivedRequests.map(\.request.prompt) == ["one two three"])
    }

    @Test("Faults by call index: error, failure after tokens, truncation, hang until cancelled")
    func faults() async throws {
        let provider = ScriptedProvider(id: "f", output: .tokens(["a", "b", "c"]),
                                        faults: FaultInjector(scheduled: [1: .error(.timeout), 2: .failAfterTokens(2, .transport("x")),
                                                                          3: .truncate, 4: .hang]))
        let request = ProviderRequest(request: GenerationRequest(prompt: "p"), analysis: RequestAnalysis(privacy: .public))
        func drain() async -> ([ProviderEvent], (any Error)?) {
            var events: [ProviderEvent] = []
            do { for try await event in await provider.generate(request) { events.append(event) } } catch { return (events, error) }
            return (events, nil)
        }
        let first = await drain()
        #expect(first.0.isEmpty && first.1 as? ProviderError == .timeout)
        let second = await drain()
        #expect(second.0 == [.token("a"), .token("b")] && second.1 as? ProviderError == .transport("x"))
        let third = await drain()
        #expect(third.0 == [.token("a"), .token("b"), .token("c")] && third.1 == nil)
        let hung = Task { await drain() }
        while await provider.activeStreams == 0 { await Task.yield() }
        hung.cancel()
        let fourth = await hung.value
        #expect(fourth.0.isEmpty)
        var active = await provider.activeStreams
        for _ in 0..<10_000 where active > 0 { await Task.yield(); active = await provider.activeStreams }
        #expect(active == 0)
        #expect(await provider.callCount == 4)
    }

    @Test("FaultInjector: seeded, per provider and call, independent of call order")
    func injector() {
        let injector = FaultInjector(seed: 99, rate: 0.3, faults: [.error(.timeout), .hang])
        let a = (1...1000).map { injector.fault(for: "a", call: $0) }
        let again = (1...1000).reversed().map { injector.fault(for: "a", call: $0) }.reversed()
        #expect(a == Array(again))
        let failures = a.compactMap { $0 }.count
        #expect(failures > 240 && failures < 360)
        #expect(a != (1...1000).map { injector.fault(for: "b", call: $0) })
        #expect(FaultInjector(seed: 1).fault(for: "a", call: 1) == nil)
    }

    @Test("ImmediateClock moves to each deadline without real waiting")
    func immediate() async throws {
        let clock = ImmediateClock()
        try await clock.sleep(for: .seconds(3600))
        #expect(clock.now.offset == .seconds(3600))
    }

    @Test("RecordingProvider keeps every request and forwards the answer")
    func recording() async throws {
        let recorder = RecordingProvider(id: "r", capabilities: Fixture.remoteCapabilities(), tokens: ["x"])
        let request = ProviderRequest(request: GenerationRequest(prompt: "secret?"), analysis: RequestAnalysis(privacy: .public))
        var events: [ProviderEvent] = []
        for try await event in await recorder.generate(request) { events.append(event) }
        #expect(events.first == .token("x"))
        #expect(await recorder.receivedRequests.map(\.request.prompt) == ["secret?"])
    }
}
