import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Coordinator and circuit breakers")
struct CoordinatorBreakerTests {
    @Test("Failures open the breaker; traffic skips the provider; after the open time a probe closes it")
    func lifecycle() async throws {
        let clock = ManualClock()
        let flaky = Fixture.local("flaky", fault: .error(.server(status: 500, message: "down")), clock: clock)
        let steady = Fixture.local("steady", clock: clock)
        let configuration = Fixture.configuration(
            retry: RetryPolicy(maxAttemptsPerProvider: 1),
            breaker: .init(consecutiveFailures: 3, minimumCalls: 100, openDuration: .seconds(30), halfOpenProbes: 1))
        let coordinator = Coordinator(providers: [flaky, steady], configuration: configuration, clock: clock, deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "hi", preferredProviders: ["flaky", "steady"])
        for _ in 0..<3 { #expect(try await coordinator.respond(to: request).providerID == "steady") }
        #expect(coordinator.breakerState(for: "flaky") == .open(until: .seconds(30)))

        let plan = await coordinator.plan(for: request)
        #expect(plan.ineligible == [Ineligibility(provider: "flaky", reason: .circuitOpen)])
        _ = try await coordinator.respond(to: request)
        #expect(await flaky.callCount == 3)

        clock.advance(by: .seconds(30))
        #expect(coordinator.breakerState(for: "flaky") == .halfOpen)
        await flaky.setPersistentFault(nil)
        #expect(try await coordinator.respond(to: request).providerID == "flaky")
        #expect(coordinator.breakerState(for: "flaky") == .closed)
    }

    @Test("A failed probe re-opens the breaker for longer")
    func reopen() async throws {
        let clock = ManualClock()
        let flaky = Fixture.local("flaky", fault: .error(.timeout), clock: clock)
        let steady = Fixture.local("steady", clock: clock)
        let configuration = Fixture.configuration(
            retry: RetryPolicy(maxAttemptsPerProvider: 1),
            breaker: .init(consecutiveFailures: 2, minimumCalls: 100, openDuration: .seconds(10), backoffMultiplier: 3))
        let coordinator = Coordinator(providers: [flaky, steady], configuration: configuration, clock: clock, deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "hi", preferredProviders: ["flaky"])
        for _ in 0..<2 { _ = try await coordinator.respond(to: request) }
        #expect(coordinator.breakerState(for: "flaky") == .open(until: .seconds(10)))
        clock.advance(by: .seconds(10))
        _ = try await coordinator.respond(to: request)
        #expect(coordinator.breakerState(for: "flaky") == .open(until: .seconds(40)))
        #expect(await flaky.callCount == 3)
    }
}
