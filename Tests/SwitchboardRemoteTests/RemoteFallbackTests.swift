import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Failures that end the calls to one remote provider but not the request: a long Retry-After, a
/// provider-specific 400, a content-filter finish, bad credentials. The scripted local provider answers.
@Suite("Remote refusals fall back to another eligible provider")
struct RemoteFallbackTests {
    static func coordinator(_ server: LoopbackHTTPServer, clock: ImmediateClock = ImmediateClock(),
                            key: String? = nil) -> Coordinator {
        Coordinator(providers: [CoordinatorEndToEndTests.local(), openAI(server, key: key)],
                    configuration: CoordinatorEndToEndTests.configuration(), clock: clock, deviceState: FixedDeviceState())
    }

    static let request = GenerationRequest(prompt: "Why is the sky blue?", preferredProviders: ["openai-compatible"])

    @Test(arguments: ["3600", HTTPDate.format(Date(timeIntervalSince1970: 4_102_444_800))])  // 2100-01-01
    func aLongRetryAfterFallsBackAtOnceAndCoolsTheProviderDown(_ retryAfter: String) async throws {
        let server = try LoopbackHTTPServer([.json(429, #"{"error":{"message":"come back later"}}"#, headers: ["Retry-After": retryAfter])])
        defer { server.stop() }
        let clock = ImmediateClock()
        let coordinator = Self.coordinator(server, clock: clock)
        let start = clock.now
        let response = try await coordinator.respond(to: Self.request)
        #expect(response.providerID == "local")
        #expect(response.fallbackFrom == "openai-compatible")
        #expect(start.duration(to: clock.now) < .seconds(5), "no sleep on the Retry-After")
        // Cooled down for the hour asked (a date in 2100 is capped at RetryPolicy.maxCooldown, one hour).
        let state = coordinator.breakerState(for: "openai-compatible")
        guard case .open(let until)? = state else { Issue.record("expected a cool-down, got \(String(describing: state))"); return }
        #expect(until >= .seconds(3590) && until <= .seconds(3600))
        // The next request goes straight to the local provider: no second HTTP call.
        #expect(try await coordinator.respond(to: Self.request).providerID == "local")
        #expect(server.requests.count == 1)
    }

    @Test func aProviderSpecific400FallsBackToTheLocalProvider() async throws {
        let body = #"{"error":{"message":"Unsupported parameter: 'seed'","type":"invalid_request_error","code":"unsupported_parameter"}}"#
        let server = try LoopbackHTTPServer([.json(400, body)])
        defer { server.stop() }
        let response = try await Self.coordinator(server).respond(to: Self.request)
        #expect(response.providerID == "local")
        #expect(response.content == "on device")
        #expect(server.requests.count == 1, "not retried on the provider that rejected it")
    }

    @Test func aContentFilterFinishFallsBackToTheLocalProvider() async throws {
        let filtered = [
            sseData(#"{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#),
            sseData(#"{"choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}"#),
            "data: [DONE]\n\n",
        ]
        let server = try LoopbackHTTPServer([.sse(filtered)])
        defer { server.stop() }
        let coordinator = Self.coordinator(server)
        var reason: ProviderError?
        var response: GenerationResponse?
        for await event in coordinator.stream(Self.request) {
            if case .fallback(_, _, let why) = event { reason = why }
            if case .completed(let done) = event { response = done }
        }
        guard case .contentPolicy? = reason else { Issue.record("expected a content-policy fallback, got \(String(describing: reason))"); return }
        #expect(response?.providerID == "local")
        #expect(response?.fallbackFrom == "openai-compatible")
    }

    @Test func badCredentialsAreFinalForThatProviderOnly() async throws {
        let unauthorized = LoopbackReply.json(401, #"{"error":{"message":"Incorrect API key provided: sk-wrong-0123456789abcdef"}}"#)
        let server = try LoopbackHTTPServer([unauthorized, unauthorized])
        defer { server.stop() }
        let coordinator = Self.coordinator(server, key: "sk-wrong-0123456789abcdef")
        let response = try await coordinator.respond(to: Self.request)
        #expect(response.providerID == "local")
        #expect(server.requests.count == 1, "an authentication failure is never retried on the same provider")
        let error = await failure(of: openAI(server, key: "sk-wrong-0123456789abcdef").generate(providerRequest()))
        guard case .authentication(let message)? = error else { Issue.record("expected authentication, got \(String(describing: error))"); return }
        #expect(error?.classification == .fallbackOnly)
        #expect(!message.contains("sk-wrong"), "the key never appears in the error")
    }
}
