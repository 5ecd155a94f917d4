import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote

/// Against a real OpenAI-compatible server (llama.cpp, Ollama, vLLM) when one is named in the
/// environment, e.g. `SWITCHBOARD_INTEROP_OPENAI_BASE_URL=http://127.0.0.1:8080/v1`; skipped otherwise
/// (`Scripts/interop-llamacpp.sh` starts one). Serialized: llama-cpp-python's server interrupts a
/// running stream when another request arrives.
@Suite("Interop with a real OpenAI-compatible server", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["SWITCHBOARD_INTEROP_OPENAI_BASE_URL"] != nil,
                "set SWITCHBOARD_INTEROP_OPENAI_BASE_URL (see Scripts/interop-llamacpp.sh) to run"))
struct RealServerInteropTests {
    var provider: RemoteProvider { provider() }

    func provider(streaming: Bool = true) -> RemoteProvider {
        let environment = ProcessInfo.processInfo.environment
        let base = URL(string: environment["SWITCHBOARD_INTEROP_OPENAI_BASE_URL"] ?? "") ?? constantURL("http://127.0.0.1:8080/v1")
        let style: RemoteProvider.OpenAIOptions.ResponseFormat =
            environment["SWITCHBOARD_INTEROP_JSON_OBJECT"] != nil ? .jsonObjectWithSchema : .jsonSchema
        return .openAI(model: environment["SWITCHBOARD_INTEROP_OPENAI_MODEL"] ?? "gemma", baseURL: base,
                       options: .init(responseFormat: style),
                       settings: RemoteProviderSettings(maxContextTokens: 2048, streaming: streaming, requestTimeout: .seconds(120),
                                                        idleTimeout: .seconds(60)))
    }

    @Test func streamsARealReply() async throws {
        let request = providerRequest("Capital of France?", messages: [ChatMessage(.system, "Be brief.")], maxTokens: 24)
        let result = try await collect(provider.generate(request))
        #expect(!result.text.isEmpty)
        #expect(result.finish != nil)
        print("interop streamed reply: \(result.text.debugDescription), finish \(String(describing: result.finish)), usage \(String(describing: result.usage))")
    }

    @Test func wholeReplyAndJSONOutput() async throws {
        let whole = provider(streaming: false)
        let schema = #"{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}"#
        let result = try await collect(whole.generate(providerRequest("Pick a color.", output: .jsonSchema(schema), maxTokens: 32)))
        print("interop JSON reply: \(result.text.debugDescription), usage \(String(describing: result.usage))")
        let json = try JSONValue.decode(Data(result.text.utf8))
        #expect(json["color"]?.stringValue != nil)
    }

    /// Non-streaming: llama-cpp-python answers a streamed overflow with 200 and an empty event stream
    /// (which is reported as `malformedResponse`, never as success).
    @Test func contextOverflowIsRecognized() async throws {
        let long = String(repeating: "word ", count: 3000)
        let error = await failure(of: provider(streaming: false).generate(providerRequest(long, maxTokens: 8)))
        guard case .contextLengthExceeded(let limit, let requested)? = error else {
            Issue.record("expected contextLengthExceeded, got \(String(describing: error))"); return
        }
        print("interop context overflow: limit \(limit), requested \(requested)")
        #expect(limit == 2048 && requested > limit)
    }
}
