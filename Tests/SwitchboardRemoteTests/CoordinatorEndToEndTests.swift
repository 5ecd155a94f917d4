import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// The runtime driving a real HTTP provider on loopback: retry after a 429, fallback on budget refusal,
/// private requests that never reach the network.
@Suite("Coordinator with a remote provider over loopback HTTP")
struct CoordinatorEndToEndTests {
    static func local() -> ScriptedProvider {
        ScriptedProvider(id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192),
                         output: .tokens(["on", " device"]))
    }

    static func configuration() -> SwitchboardConfiguration {
        SwitchboardConfiguration(breaker: .init(consecutiveFailures: 1_000, minimumCalls: 1_000), cacheEnabled: false,
                                 stateRefreshInterval: .zero)
    }

    @Test func rateLimitedThenServedHonouringRetryAfter() async throws {
        let server = try LoopbackHTTPServer([
            .json(429, #"{"error":{"message":"slow down"}}"#, headers: ["Retry-After": "3"]),
            .sse(OpenAICompatibleProviderTests.happyStream),
        ])
        defer { server.stop() }
        let clock = ImmediateClock()
        let start = clock.now
        let coordinator = Coordinator(providers: [Self.local(), openAI(server)], configuration: Self.configuration(), clock: clock,
                                      deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "Why is the sky blue?",
                                                                          preferredProviders: ["openai-compatible"]))
        #expect(response.providerID == "openai-compatible")
        #expect(response.content == "Hello ✓")
        #expect(response.attempts == 2)
        #expect(response.usage == TokenUsage(promptTokens: 11, completionTokens: 3))
        #expect(clock.now >= start.advanced(by: .seconds(3)))
        #expect(server.requests.count == 2)
    }

    @Test func budgetRefusalFallsBackWithoutAnyHTTPCall() async throws {
        let server = try LoopbackHTTPServer([])
        defer { server.stop() }
        let remote = openAI(server, settings: settings(pricing: TokenPricing(inputPerMillion: 100, outputPerMillion: 100), budget: 0.000_001))
        let coordinator = Coordinator(providers: [remote, Self.local()], configuration: Self.configuration(), clock: ImmediateClock(),
                                      deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "Why is the sky blue?",
                                                                          preferredProviders: ["openai-compatible"]))
        #expect(response.providerID == "local")
        #expect(response.fallbackFrom == "openai-compatible")
        #expect(server.snapshot.connections == 0)
    }

    @Test func sensitiveRequestNeverReachesTheServer() async throws {
        let server = try LoopbackHTTPServer([.sse(OpenAICompatibleProviderTests.happyStream)])
        defer { server.stop() }
        let coordinator = Coordinator(providers: [openAI(server), Self.local()], configuration: Self.configuration(), clock: ImmediateClock(),
                                      deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: GenerationRequest(prompt: "My SSN is 219-09-9999, which form do I file?",
                                                                          preferredProviders: ["openai-compatible"]))
        #expect(response.providerID == "local")
        #expect(server.snapshot.connections == 0)
    }
}
