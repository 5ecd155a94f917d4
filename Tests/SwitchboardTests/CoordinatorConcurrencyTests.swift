import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// Requests run on their callers' threads and share the coordinator's state under one lock
/// (`CoordinatorState`): many callers at once must lose no update — every request counted once,
/// every call recorded once, every failure seen by the metrics.
@Suite struct CoordinatorConcurrencyTests {
    @Test("Eight callers at once: bookkeeping, calls and failures all add up")
    func concurrentCallersLoseNoUpdate() async throws {
        let faults = FaultInjector(seed: 7, rate: 0.3, faults: [.error(.timeout)])
        let flaky = ScriptedProvider(id: "flaky", capabilities: ProviderCapabilities(isOnDevice: false, maxContextTokens: 8192),
                                     output: .tokens(["a", "b"]), faults: faults, recordsRequests: false)
        let steady = ScriptedProvider(id: "steady", output: .tokens(["c"]), recordsRequests: false)
        let coordinator = Coordinator(providers: [flaky, steady],
                                      configuration: SwitchboardConfiguration(defaultConcurrency: 64), clock: ImmediateClock(),
                                      deviceState: FixedDeviceState())
        let callers = 8, each = 100
        let completed = await withTaskGroup(of: Int.self) { group in
            for caller in 0..<callers {
                group.addTask {
                    var done = 0
                    for i in 0..<each {
                        let request = GenerationRequest(prompt: "Give me a public fact number \(caller * each + i).", maxTokens: 8)
                        if (try? await coordinator.respond(to: request)) != nil { done += 1 }
                    }
                    return done
                }
            }
            return await group.reduce(0, +)
        }
        let counts = coordinator.requestCounts()
        #expect(counts.accepted == callers * each)
        #expect(counts.completed + counts.failed + counts.cancelled == counts.accepted)
        #expect(counts.completed == completed && counts.inProgress == 0)

        let snapshot = await coordinator.metricsSnapshot()
        let flakyCalls = await flaky.callCount, steadyCalls = await steady.callCount
        let recorded = snapshot.providers
        #expect(recorded["flaky"]?.requests ?? 0 == flakyCalls)
        #expect(recorded["steady"]?.requests ?? 0 == steadyCalls)
        #expect(flakyCalls + steadyCalls >= callers * each)
        #expect(flakyCalls > 0 && steadyCalls > 0, "both providers are exercised: flaky \(flakyCalls), steady \(steadyCalls)")
        let injected = (1...max(1, flakyCalls)).filter { faults.fault(for: "flaky", call: $0) != nil }.count
        #expect(recorded["flaky"]?.failures ?? -1 == (flakyCalls == 0 ? 0 : injected))
    }
}
