import Synchronization
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Privacy guarantee")
struct PrivacyGuaranteeTests {
    static let sensitivePrompts = [
        "My card is 4111 1111 1111 1111, book the flight",
        "SSN 123-45-6789 for the tax form",
        "my password is hunter2! can you remember it",
        "wire it to DE89 3704 0044 0532 0130 00 tomorrow",
        "export OPENAI_API_KEY=sk-abc123def456ghi789jkl012",
        "I was diagnosed with depression last year, what helps?",
        "my passport number is X12345678",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    ]

    @Test("Sensitive prompts never reach a remote provider, even when every local provider fails",
          arguments: [Fault.error(.server(status: 500, message: "boom")), .error(.unavailable("no model")), .error(.timeout)])
    func localFailuresNeverSpillRemote(fault: Fault) async {
        let remote = RecordingProvider(id: "remote", capabilities: Fixture.remoteCapabilities())
        let localA = Fixture.local("local-a", fault: fault, clock: ImmediateClock())
        let localB = Fixture.local("local-b", fault: fault, clock: ImmediateClock())
        let coordinator = Coordinator(providers: [remote, localA, localB], configuration: Fixture.configuration(),
                                      clock: ImmediateClock(), deviceState: FixedDeviceState())
        for prompt in Self.sensitivePrompts {
            let error = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: prompt)) }
            guard case .allProvidersFailed(let attempts)? = error else {
                Issue.record("expected allProvidersFailed, got \(String(describing: error))"); continue
            }
            #expect(attempts.allSatisfy { $0.provider != "remote" })
            #expect(!attempts.isEmpty)
            let events = await Fixture.collect(coordinator.stream(GenerationRequest(prompt: prompt)))
            #expect(!events.contains { if case .providerChosen("remote", _) = $0 { true } else { false } })
        }
        #expect(await remote.callCount == 0)
        #expect(await localA.callCount > 0)
    }

    @Test("With no local provider available the answer is noEligibleProvider naming privacy, never a remote call")
    func noLocalProvider() async {
        let remote = RecordingProvider(id: "remote", capabilities: Fixture.remoteCapabilities())
        let local = Fixture.local()
        await local.setAvailability(.unavailable(reason: "model not downloaded"))
        let coordinator = Coordinator(providers: [remote, local], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        for prompt in Self.sensitivePrompts {
            let error = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: prompt)) }
            #expect(error == .noEligibleProvider([Ineligibility(provider: "remote", reason: .privacy),
                                                  Ineligibility(provider: "local", reason: .unavailable)]))
        }
        #expect(await remote.callCount == 0)
    }

    @Test("Personal data stays local unless the app allows it; the control case does go remote")
    func personal() async throws {
        let remote = RecordingProvider(id: "remote", capabilities: Fixture.remoteCapabilities())
        let local = Fixture.local(fault: .error(.unavailable("busy")))
        let memory = MemoryContext(shortTerm: [.init("Alice's birthday is on Friday")], containsPersonalData: true)
        let strict = Coordinator(providers: [remote, local], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        _ = await Fixture.failure { try await strict.respond(to: GenerationRequest(prompt: "email me at bob@example.com")) }
        _ = await Fixture.failure { try await strict.respond(to: GenerationRequest(prompt: "Plan the party", memory: memory)) }
        #expect(await remote.callCount == 0)

        let lenient = Coordinator(providers: [remote, local],
                                  configuration: Fixture.configuration(privacy: PrivacyPolicy(allowPersonalRemote: true)),
                                  deviceState: FixedDeviceState())
        let response = try await lenient.respond(to: GenerationRequest(prompt: "Plan the party", memory: memory))
        #expect(response.providerID == "remote")
        #expect(response.privacy == .personal)
        #expect(await remote.callCount == 1)
        // Public control: the same failing local model does fall back to remote.
        let publicResponse = try await strict.respond(to: GenerationRequest(prompt: "Name three planets"))
        #expect(publicResponse.providerID == "remote")
    }

    @Test("When analysis fails the request is treated as sensitive (fail closed)")
    func failClosed() async {
        let remote = RecordingProvider(id: "remote", capabilities: Fixture.remoteCapabilities())
        let analyzer = RequestAnalyzer(configuration: AnalyzerConfiguration(maxAnalyzedBytes: 8))
        let coordinator = Coordinator(providers: [remote], configuration: Fixture.configuration(),
                                      deviceState: FixedDeviceState(), analyzer: analyzer)
        let plan = await coordinator.plan(for: GenerationRequest(prompt: "What is the capital of France?"))
        #expect(plan.analysis.privacy == .sensitive)
        let error = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "What is the capital of France?")) }
        #expect(error == .noEligibleProvider([Ineligibility(provider: "remote", reason: .privacy)]))
        #expect(await remote.callCount == 0)
    }

    @Test("The dispatcher re-checks isOnDevice: a provider that changes its story is not called")
    func defenceInDepth() async {
        let turncoat = TurncoatProvider()
        let coordinator = Coordinator(providers: [turncoat], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        let error = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "my password is hunter2!")) }
        #expect(error == .noEligibleProvider([Ineligibility(provider: "turncoat", reason: .privacy)]))
        #expect(await turncoat.calls == 0)
    }
}

/// Claims to be on-device when registered, then claims otherwise: only the dispatch-time check stops it.
actor TurncoatProvider: Provider {
    private let reads = Atomic<Int>(0)
    nonisolated var id: ProviderID { "turncoat" }
    nonisolated var capabilities: ProviderCapabilities {
        let read = reads.add(1, ordering: .relaxed).newValue
        return ProviderCapabilities(isOnDevice: read <= 1, maxContextTokens: 8192)
    }
    private(set) var calls = 0
    func availability() -> ProviderAvailability { .ready }
    func generate(_ request: ProviderRequest) -> ProviderEventStream {
        calls += 1
        return .failing(.invalidRequest("must not be called"))
    }
}
