import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// A remote server's claims are hints, end to end: a real OpenAI-compatible provider on loopback, the
/// coordinator, and a scripted on-device stand-in with an 8,192-token context.
@Suite("A server's context claims and streamed text cannot veto the device")
struct ContextClaimLoopbackTests {
    static func device() -> ScriptedProvider {
        ScriptedProvider(id: "device", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192),
                         output: .tokens(["on", " device"]))
    }

    static func configuration() -> SwitchboardConfiguration {
        // One call per provider: a failed remote hands over to the device at once.
        SwitchboardConfiguration(retry: RetryPolicy(maxAttemptsPerProvider: 1),
                                 breaker: .init(consecutiveFailures: 1_000, minimumCalls: 1_000), cacheEnabled: false,
                                 stateRefreshInterval: .zero)
    }

    static let question = "What is the boiling point of water at sea level, in degrees Celsius, please?"

    @Test(arguments: [999_999_999_999, Int.max])
    func aHugeContextClaimRulesOutOnlyTheRemote(_ limit: Int) async throws {
        let body = #"{"error":{"message":"This model's maximum context length is \#(limit) tokens. However, your messages "#
            + #"resulted in \#(limit) tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#
        let server = try LoopbackHTTPServer([.json(400, body)])
        defer { server.stop() }
        let device = Self.device()
        let coordinator = Coordinator(providers: [device, openAI(server)], configuration: Self.configuration(), clock: ImmediateClock(),
                                      deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: Self.question, preferredProviders: ["openai-compatible"])
        var reason: ProviderError?
        var response: GenerationResponse?
        for await event in coordinator.stream(request) {
            if case .fallback(_, _, let why) = event { reason = why }
            if case .completed(let done) = event { response = done }
        }
        guard case .contextLengthExceeded(let claimed, _)? = reason else {
            Issue.record("expected the claim, got \(String(describing: reason))"); return
        }
        // The wire decoder clamps the number (to 2^30); either way the claim dwarfs anything the device could need.
        #expect(claimed >= 1 << 30, "the server's claim (\(limit)) reached the router")
        #expect(response?.providerID == "device")
        #expect(response?.text == "on device")
        #expect(await device.callCount == 1)
        #expect(server.requests.count == 1)
    }

    @Test func hugeStreamedPiecesAreNotCarriedWholeIntoTheDevice() async throws {
        // 30 KB in all, far more than the device can take after its prompt and the answer's room, and under
        // the remote's own output cap for 2,048 tokens (16 characters a token): the reset, not the cap, ends it.
        let piece = String(repeating: "a", count: 1_000)
        let chunk = sseData(#"{"choices":[{"index":0,"delta":{"content":"\#(piece)"},"finish_reason":null}]}"#)
        let server = try LoopbackHTTPServer([.sse(Array(repeating: chunk, count: 30), then: [.reset])])
        defer { server.stop() }
        let device = Self.device()
        let coordinator = Coordinator(providers: [device, openAI(server, settings: settings(idleTimeout: .seconds(30)))],
                                      configuration: Self.configuration(), clock: ImmediateClock(), deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: Self.question, maxTokens: 2_048, preferredProviders: ["openai-compatible"])
        var carried: CarriedText?
        var delivered = 0
        var response: GenerationResponse?
        for await event in coordinator.stream(request) {
            switch event {
            case .token(let text) where carried == nil: delivered += text.utf8.count
            case .resumed(_, let to, _, let how): #expect(to == "device"); carried = how
            case .completed(let done): response = done
            default: break
            }
        }
        // As much as the remote's own output cap lets through: more than the device's whole context either way.
        #expect(delivered > 8192)
        guard case .trimmed(let kept, let dropped)? = carried else {
            Issue.record("expected a trimmed prefix, got \(String(describing: carried))"); return
        }
        let prefix = try #require(await device.receivedRequests.last?.request.answerPrefix)
        #expect(prefix.utf8.count == kept && kept <= 8192 && kept + dropped == delivered)
        #expect(response?.providerID == "device")
        #expect(response.map { $0.text.hasSuffix("on device") && $0.text.utf8.count == delivered + 9 } == true)
    }
}
