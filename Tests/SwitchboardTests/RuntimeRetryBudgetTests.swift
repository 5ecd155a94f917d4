import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Retry budget in the runtime")
struct RuntimeRetryBudgetTests {
    @Test("Against a provider that always fails, attempts stay ≤ 1.2 × requests + 3")
    func boundedAttempts() async {
        let clock = ImmediateClock()
        let broken = Fixture.remote("broken", fault: .error(.server(status: 503, message: "down")), clock: clock)
        let configuration = Fixture.configuration(retry: RetryPolicy(maxAttemptsPerProvider: 4, maxAttempts: 4))
        let coordinator = Coordinator(providers: [broken], configuration: configuration, clock: clock, deviceState: FixedDeviceState())
        let requests = 300
        for i in 0..<requests {
            let error = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "request \(i)")) }
            guard case .allProvidersFailed? = error else { Issue.record("unexpected \(String(describing: error))"); return }
        }
        let attempts = await broken.callCount
        #expect(Double(attempts) <= 1.2 * Double(requests) + 3)
        #expect(attempts > requests, "the budget should still allow some retries")
    }

    @Test("Without the budget's pressure a single request does retry up to the cap")
    func retriesHappen() async {
        let clock = ImmediateClock()
        let broken = Fixture.remote("broken", fault: .error(.timeout), clock: clock)
        let coordinator = Coordinator(providers: [broken], configuration: Fixture.configuration(retry: RetryPolicy(maxAttemptsPerProvider: 3)),
                                      clock: clock, deviceState: FixedDeviceState())
        let error = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "once")) }
        #expect(error == .allProvidersFailed(Array(repeating: AttemptFailure(provider: "broken", error: .timeout), count: 3)))
    }
}
