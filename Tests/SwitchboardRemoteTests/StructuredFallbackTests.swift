import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// An invalid remote document is retried, then the router falls back to the on-device provider.
@Suite("Invalid remote JSON falls back to the local provider")
struct StructuredFallbackTests {
    static let local = ScriptedProvider(id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192,
                                                                                        supportsStructuredOutput: true),
                                        output: .tokens([#"{"name":"Ada","#, #""age":36}"#]))

    @Test func theFallbackEventNamesTheValidationFailure() async throws {
        let invalid = StructuredWireFormatTests.openAIStream([#"{"name":"Ada","age":-1}"#])
        let server = try LoopbackHTTPServer([.sse(invalid), .sse(invalid)])
        defer { server.stop() }
        let coordinator = Coordinator(providers: [Self.local, openAI(server)],
                                      configuration: CoordinatorEndToEndTests.configuration(), clock: ImmediateClock(),
                                      deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "Who wrote the first program?", output: .jsonSchema(StructuredWireFormatTests.schema),
                                        preferredProviders: ["openai-compatible"])
        var reason: ProviderError?
        var response: GenerationResponse?
        var tokens: [String] = []
        for await event in coordinator.stream(request) {
            switch event {
            case .fallback(let from, let to, let why): #expect(from == "openai-compatible" && to == "local"); reason = why
            case .token(let piece): tokens.append(piece)
            case .completed(let done): response = done
            default: break
            }
        }
        guard case .malformedResponse(let message)? = reason else { Issue.record("expected a validation fallback, got \(String(describing: reason))"); return }
        #expect(message.contains("does not follow the schema at $.age"))
        #expect(server.requests.count == 2, "retried once on the remote (retryable), then fell back")
        #expect(response?.providerID == "local")
        #expect(response?.fallbackFrom == "openai-compatible")
        #expect(response?.text == StructuredWireFormatTests.document)
        #expect(tokens.joined() == StructuredWireFormatTests.document, "the invalid remote document never reached the caller")
    }
}
