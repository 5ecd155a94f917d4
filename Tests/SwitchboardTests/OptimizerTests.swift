import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Optimizer")
struct OptimizerTests {
    @Test("Errors lower a provider's weight and concurrency; a healthy one gains a slot")
    func adapt() async throws {
        let clock = ImmediateClock()
        let flaky = ScriptedProvider(id: "flaky", capabilities: Fixture.remoteCapabilities(), output: .tokens(["ok"]),
                                     faults: FaultInjector(seed: 3, rate: 0.5, faults: [.error(.server(status: 500, message: "x"))]),
                                     clock: clock)
        let steady = Fixture.remote("steady", clock: clock)
        let configuration = Fixture.configuration(retry: RetryPolicy(maxAttemptsPerProvider: 1), concurrency: 8)
        let coordinator = Coordinator(providers: [flaky, steady], configuration: configuration, clock: clock, deviceState: FixedDeviceState())
        for i in 0..<40 {
            _ = try? await coordinator.respond(to: GenerationRequest(prompt: "q\(i)", preferredProviders: ["flaky"]))
        }
        let plan = await coordinator.adapt()
        #expect((plan.weights["flaky"] ?? 1) < (plan.weights["steady"] ?? 0))
        #expect(await coordinator.loadBalancer.limit(for: "flaky") == 4)
        #expect(await coordinator.loadBalancer.limit(for: "steady") == 9)
        #expect(coordinator.weights()["flaky"] == plan.weights["flaky"])

        // The lower weight changes routing when nothing else is preferred.
        let before = await coordinator.plan(for: GenerationRequest(prompt: "anything"))
        #expect(before.candidates.first == "steady")
    }

    @Test("A quiet window leaves limits alone")
    func quiet() async {
        let coordinator = Coordinator(providers: [Fixture.local()], configuration: Fixture.configuration(concurrency: 3),
                                      deviceState: FixedDeviceState())
        _ = try? await coordinator.respond(to: GenerationRequest(prompt: "one"))
        _ = await coordinator.adapt()
        let limit = await coordinator.loadBalancer.limit(for: "local")
        _ = await coordinator.adapt()
        #expect(await coordinator.loadBalancer.limit(for: "local") == limit)
    }

    @Test("Runs periodically on the injected clock until stopped")
    func periodic() async {
        let clock = ManualClock()
        let coordinator = Coordinator(providers: [Fixture.local(clock: clock)], configuration: Fixture.configuration(), clock: clock,
                                      deviceState: FixedDeviceState())
        await coordinator.startAdapting(every: .seconds(10))
        for expected in 1...3 {
            #expect(await clock.waitForSleepers(1))
            clock.advance(by: .seconds(10))
            var runs = await coordinator.optimizer.runs
            for _ in 0..<10_000 where runs < expected { await Task.yield(); runs = await coordinator.optimizer.runs }
            #expect(runs == expected)
        }
        await coordinator.stopAdapting()
        clock.advance(by: .seconds(100))
        for _ in 0..<100 { await Task.yield() }
        #expect(await coordinator.optimizer.runs == 3)
    }
}
