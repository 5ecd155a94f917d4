import Testing
import Switchboard
import SwitchboardTestKit
@testable import SwitchboardBench

/// A small chaos run through a real Coordinator, real loopback servers and the real remote provider,
/// with a scripted on-device provider in place of the model: the bookkeeping balances and no
/// sensitive request reaches a server, whatever the fault.
@Suite("switchboard-bench chaos")
struct ChaosScenarioTests {
    static func local() -> ScriptedProvider {
        ScriptedProvider(id: "local-scripted",
                         capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 4096,
                                                            expectedTimeToFirstToken: .milliseconds(400), expectedTokensPerSecond: 20),
                         output: .tokens(["On", " device", "."]))
    }

    static let settings = ChaosSettings(requests: 20, concurrency: 4, maxTokens: 8, seed: 3)

    @Test(arguments: [ChatFault.resetBeforeFirstToken, .resetAfterFirstToken, .serverError, .malformedJSON])
    func faultyRemotesKeepTheBooksAndThePrivacy(fault: ChatFault) async throws {
        let local = Self.local()
        let row = try await ChaosRun.run(.uniform(fault, rate: 0.5, seed: 9), local: local, settings: Self.settings)
        #expect(row.balanced, "accepted \(row.accepted) = \(row.completed) + \(row.failed) + \(row.cancelled)")
        #expect(row.requests == 20 && row.sensitiveRequests == 2)
        #expect(row.sensitiveSentRemote == 0)
        #expect(row.sensitiveServedOnDevice == row.sensitiveRequests)
        #expect(row.remoteRequests > 0, "public requests went to the servers")
        // The scripted provider saw only what was routed to it; every sensitive request among it.
        let received = await local.receivedRequests
        #expect(received.filter { $0.analysis.privacy == .sensitive }.count == 2)
    }

    @Test func withEveryRemoteDeadTheDeviceServesEverything() async throws {
        let row = try await ChaosRun.run(.allDead(), local: Self.local(), settings: Self.settings)
        #expect(row.balanced)
        #expect(row.completed == 20 && row.servedOnDevice == 20)
        #expect(row.remoteRequests == 0 && row.sensitiveSentRemote == 0)
        // (The attempts bound is a figure for the full run: a 20-request run is mostly warm-up.)
    }

    @Test func theMatrixHasEveryFaultAndEveryRate() {
        for full in [false, true] {
            let rows = ChaosScenario.matrix(full: full, seed: 1)
            #expect(Set(rows.compactMap(\.fault)) == Set(ChatFault.allCases))
            #expect(Set(rows.filter { $0.fault != nil }.map(\.rate)) == Set(ChaosScenario.rates))
            #expect(rows.contains { $0.name.hasPrefix("one remote dead") } && rows.contains { $0.name.hasPrefix("all remotes dead") })
        }
        #expect(ChaosScenario.matrix(full: true, seed: 1).count == 1 + 40 + 2 + 2)
        #expect(ChaosScenario.matrix(full: false, seed: 1).count == 1 + 20 + 3 + 2 + 2)
        #expect(ChaosScenario.matrix(full: false, seed: 1).filter(\.hedged).map(\.fault) == [.timeout, .timeout])
    }

    @Test func chaosOptionsAreRangeChecked() {
        let options = ChaosCommand.options ?? []
        #expect(throws: UsageError.self) { try Arguments(["--requests", "0"], options: options, command: "chaos") }
        #expect(throws: UsageError.self) { try Arguments(["--concurrency", "-1"], options: options, command: "chaos") }
        #expect(throws: UsageError.self) { try Arguments(["--bogus"], options: options, command: "chaos") }
        #expect((try? Arguments(["--json", "--full", "--requests", "50", "--seed", "9"], options: options, command: "chaos")) != nil)
    }
}
