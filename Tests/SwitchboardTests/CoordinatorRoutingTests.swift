import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Coordinator routing")
struct CoordinatorRoutingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var request: GenerationRequest
        var allowPersonalRemote = false
        var localAvailable = true
        var device = DeviceState.nominal
        var expected: [ProviderID]
        var ineligible: [Ineligibility.Reason] = []
        var testDescription: String { name }
    }

    static let longPrompt = String(repeating: "the public weather report for the coast ", count: 900)

    static let rows: [Row] = [
        Row(name: "short public prompt: local first (fast, free)", request: GenerationRequest(prompt: "Name three planets.", maxTokens: 50),
            expected: ["local", "remote"]),
        Row(name: "card number: local only", request: GenerationRequest(prompt: "Charge my card 4111 1111 1111 1111 today"),
            expected: ["local"], ineligible: [.privacy]),
        Row(name: "email: personal stays local by default", request: GenerationRequest(prompt: "email me at bob@example.com"),
            expected: ["local"], ineligible: [.privacy]),
        Row(name: "email with allowPersonalRemote: both", request: GenerationRequest(prompt: "email me at bob@example.com", maxTokens: 50),
            allowPersonalRemote: true, expected: ["local", "remote"]),
        Row(name: "image: remote only", request: GenerationRequest(prompt: "What is in this picture?",
                                                                   images: [ImageAttachment(data: .init([1, 2, 3]), mimeType: "image/png")]),
            expected: ["remote"], ineligible: [.noImageSupport]),
        Row(name: "JSON schema: remote only", request: GenerationRequest(prompt: "List planets", output: .jsonSchema("{\"type\":\"array\"}")),
            expected: ["remote"], ineligible: [.noStructuredOutput]),
        Row(name: "long prompt: only the large context", request: GenerationRequest(prompt: longPrompt),
            expected: ["remote"], ineligible: [.contextTooSmall]),
        Row(name: "local excluded", request: GenerationRequest(prompt: "Hi", excludedProviders: ["local"]),
            expected: ["remote"], ineligible: [.excluded]),
        Row(name: "remote preferred", request: GenerationRequest(prompt: "Hi", preferredProviders: ["remote"]),
            expected: ["remote", "local"]),
        Row(name: "local unavailable", request: GenerationRequest(prompt: "Hi"), localAvailable: false,
            expected: ["remote"], ineligible: [.unavailable]),
        Row(name: "critically hot device sheds public work", request: GenerationRequest(prompt: "Hi"),
            device: DeviceState(thermal: .critical), expected: ["remote"], ineligible: [.deviceState]),
        Row(name: "stressed device: remote ranks first", request: GenerationRequest(prompt: "Hi", maxTokens: 50),
            device: DeviceState(thermal: .serious, batteryLevel: 0.05, isCharging: false), expected: ["remote", "local"]),
        Row(name: "sensitive on a stressed device: still local", request: GenerationRequest(prompt: "my password is hunter2!"),
            device: DeviceState(thermal: .critical), expected: ["local"], ineligible: [.privacy]),
    ]

    @Test("Routing decisions", arguments: rows)
    func decision(row: Row) async {
        let local = Fixture.local()
        if !row.localAvailable { await local.setAvailability(.unavailable(reason: "model missing")) }
        let coordinator = Coordinator(
            providers: [Fixture.remote(), local],
            configuration: Fixture.configuration(privacy: PrivacyPolicy(allowPersonalRemote: row.allowPersonalRemote)),
            deviceState: FixedDeviceState(row.device))
        let plan = await coordinator.plan(for: row.request)
        #expect(plan.candidates == row.expected)
        #expect(plan.ineligible.map(\.reason) == row.ineligible)
    }

    @Test("respond goes to the top-ranked provider and reports it")
    func respondUsesTopCandidate() async throws {
        let local = Fixture.local(), remote = Fixture.remote()
        let coordinator = Coordinator(providers: [local, remote], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "Name three planets.", maxTokens: 50))
        #expect(response.providerID == "local")
        #expect(response.content == "local answer")
        #expect(response.attempts == 1)
        #expect(response.fallbackFrom == nil)
        #expect(response.privacy == .public)
        #expect(await remote.callCount == 0)
        #expect(coordinator.requestCounts().completed == 1)
    }

    @Test("No provider at all, and bad requests, fail with typed errors")
    func typedErrors() async {
        let empty = Coordinator(configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        #expect(await Fixture.failure { try await empty.respond(to: GenerationRequest(prompt: "hi")) } == .noEligibleProvider([]))
        let coordinator = Coordinator(providers: [Fixture.local()], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        guard case .invalidRequest? = await Fixture.failure({ try await coordinator.respond(to: GenerationRequest()) }) else {
            Issue.record("empty request should be invalid"); return
        }
        guard case .invalidRequest? = await Fixture.failure({ try await coordinator.respond(to: GenerationRequest(prompt: "x",
            maxTokens: 0)) }) else {
            Issue.record("maxTokens 0 should be invalid"); return
        }
        let counts = coordinator.requestCounts()
        #expect(counts.accepted == 2 && counts.failed == 2)
    }

    @Test("Registering later and replacing by id")
    func registration() async throws {
        let coordinator = Coordinator(configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        await coordinator.register(Fixture.remote())
        await coordinator.register(Fixture.remote(tokens: ["replaced"]))
        #expect(coordinator.providerIDs == ["remote"])
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "hi"))
        #expect(response.content == "replaced")
        coordinator.unregister("remote")
        #expect(coordinator.providerIDs.isEmpty)
    }
}
