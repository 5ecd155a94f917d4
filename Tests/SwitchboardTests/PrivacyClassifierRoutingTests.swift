import Synchronization
import Testing
@testable import Switchboard
import SwitchboardTestKit

/// A classifier that calls private every text containing one of its words, and counts its calls.
final class WordClassifier: PrivacyClassifier, Sendable {
    let threshold = 0.5
    let words: [String]
    let fails: Bool
    private let calls = Mutex(0)
    init(_ words: [String], fails: Bool = false) { self.words = words; self.fails = fails }
    var callCount: Int { calls.withLock { $0 } }
    func scores(_ texts: [String]) async throws -> [Double] {
        calls.withLock { $0 += 1 }
        if fails { throw CancellationError() }
        return texts.map { text in words.contains { text.lowercased().contains($0) } ? 0.9 : 0.1 }
    }
}

@Suite("The on-device privacy classifier in routing")
struct PrivacyClassifierRoutingTests {
    static func make(_ classifier: WordClassifier) -> (Coordinator, RecordingProvider, ScriptedProvider) {
        let remote = RecordingProvider(id: "remote", capabilities: Fixture.remoteCapabilities())
        let local = Fixture.local("local", clock: ImmediateClock())
        var configuration = Fixture.configuration()
        configuration.privacyClassifier = classifier
        // The remote is preferred: only privacy keeps a request home.
        configuration.scoring = ScoringPolicy()
        return (Coordinator(providers: [remote, local], configuration: configuration, clock: ImmediateClock(),
                            deviceState: FixedDeviceState()), remote, local)
    }

    @Test("What the recognizers pass but the classifier calls private stays on the device")
    func classifierKeepsHome() async throws {
        let classifier = WordClassifier(["bleeding"])
        let (coordinator, remote, _) = Self.make(classifier)
        var request = GenerationRequest(prompt: "the bleeding started again this morning, what should I do")
        request.preferredProviders = ["remote"]
        let response = try await coordinator.respond(to: request)
        #expect(response.providerID == "local")
        #expect(response.privacy == .sensitive)
        #expect(await remote.callCount == 0)
        var plain = GenerationRequest(prompt: "what is the capital of Portugal")
        plain.preferredProviders = ["remote"]
        #expect(try await coordinator.respond(to: plain).providerID == "remote")
    }

    @Test("A failing classifier fails closed; requests already private are never scored")
    func failClosedAndNoExtraWork() async throws {
        let failing = WordClassifier([], fails: true)
        let (coordinator, remote, _) = Self.make(failing)
        var request = GenerationRequest(prompt: "what is the capital of Portugal")
        request.preferredProviders = ["remote"]
        #expect(try await coordinator.respond(to: request).providerID == "local")
        #expect(await remote.callCount == 0)

        let counting = WordClassifier(["nothing"])
        let (second, _, _) = Self.make(counting)
        _ = try await second.respond(to: GenerationRequest(prompt: "my SSN is 123-45-6789"))
        #expect(counting.callCount == 0)
    }

    @Test("With no off-device provider registered the classifier is not asked")
    func onlyLocalProviders() async throws {
        let counting = WordClassifier(["bleeding"])
        var configuration = Fixture.configuration()
        configuration.privacyClassifier = counting
        let coordinator = Coordinator(providers: [Fixture.local("local", clock: ImmediateClock())], configuration: configuration,
                                      clock: ImmediateClock(), deviceState: FixedDeviceState())
        _ = try await coordinator.respond(to: GenerationRequest(prompt: "the bleeding started again"))
        #expect(counting.callCount == 0)
    }
}
