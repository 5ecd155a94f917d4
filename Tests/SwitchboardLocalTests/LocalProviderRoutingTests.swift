import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
import Testing
@testable import SwitchboardLocal

/// The local provider inside the full runtime, with a scripted engine: privacy routing, context
/// fallback and bookkeeping (the same scenarios run against the real model in `RealModelTests`).
@Suite("Local provider in the runtime (scripted engine)")
struct LocalProviderRoutingTests {
    static let remoteCapabilities = ProviderCapabilities(isOnDevice: false, maxContextTokens: 128_000,
                                                         supportsImages: true, supportsStructuredOutput: true)

    @Test("a sensitive request is served on device; the recording remote receives nothing")
    func sensitiveStaysLocal() async throws {
        let fixture = try LocalProviderLifecycleTests.Fixture()
        defer { fixture.file.remove() }
        let remote = RecordingProvider(id: "remote-recorded", capabilities: Self.remoteCapabilities, tokens: ["cloud"])
        let coordinator = Coordinator(providers: [fixture.provider, remote],
                                      configuration: SwitchboardConfiguration(concurrency: [fixture.provider.id: 1],
                                                                              defaultDeadline: RealModel.testDeadline),
                                      deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "My SSN is 219-09-9999, help me fill the form", maxTokens: 3,
                                        preferredProviders: ["remote-recorded"])
        let response = try await coordinator.respond(to: request)
        #expect(response.providerID == fixture.provider.id)
        #expect(response.privacy == .sensitive)
        #expect(response.content == " MY SSN IS")
        #expect(await remote.callCount == 0)
        #expect(coordinator.requestCounts().completed == 1)
    }

    @Test("an oversized prompt fails locally with a context error and falls back to a larger context")
    func contextFallback() async throws {
        let fixture = try LocalProviderLifecycleTests.Fixture(engine: ScriptedEngine(contextLength: 32))
        defer { fixture.file.remove() }
        let large = ScriptedProvider(id: "remote-large", capabilities: Self.remoteCapabilities, output: .tokens(["fits"]))
        let coordinator = Coordinator(providers: [fixture.provider, large],
                                      configuration: SwitchboardConfiguration(concurrency: [fixture.provider.id: 1],
                                                                              defaultDeadline: RealModel.testDeadline),
                                      deviceState: FixedDeviceState())
        let prompt = Array(repeating: "word", count: 60).joined(separator: " ")
        var events: [SwitchboardEvent] = []
        for await event in coordinator.stream(GenerationRequest(prompt: prompt, maxTokens: 4,
                                                                preferredProviders: [fixture.provider.id])) {
            events.append(event)
        }
        let fallback = events.compactMap { event -> ProviderError? in
            if case .fallback(let from, _, let reason) = event, from == fixture.provider.id { return reason }
            return nil
        }
        #expect(fallback == [.contextLengthExceeded(limit: 32, requested: 65)])
        guard case .completed(let response)? = events.last else { Issue.record("expected completion: \(events)"); return }
        #expect(response.providerID == "remote-large")
        #expect(response.fallbackUsed)
    }
}
