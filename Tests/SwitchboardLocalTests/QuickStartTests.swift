import Switchboard
import SwitchboardCore
import Testing
@testable import SwitchboardLocal

/// The README quick start, as written there (plus the model path tests use), so it cannot rot.
@Suite("README quick start", .enabled(if: RealModel.enabled, RealModel.skipReason))
struct QuickStartTests {
    @Test("register the local model, send a request, read the stream")
    func quickStart() async throws {
        let local = LocalModelProvider(configuration: .gemma3_270m, modelPath: RealModel.path,
                                       loader: LocalEngineLoader(threads: 2))
        let switchboard = Coordinator(providers: [local],
                                      configuration: SwitchboardConfiguration(concurrency: [local.id: 1]),
                                      deviceState: SystemStateSource())

        var text = ""
        var finished: GenerationResponse?
        for await event in switchboard.stream(GenerationRequest(prompt: "The capital of France is", maxTokens: 8)) {
            switch event {
            case .token(let piece): text += piece
            case .completed(let response): finished = response
            case .failed(let error): Issue.record("failed: \(error)")
            default: break
            }
        }
        let response = try #require(finished)
        #expect(response.providerID == "local-gemma-3-270m")
        #expect(response.text == text && !text.isEmpty)
        #expect(response.usage.completionTokens == 8)
        await local.unload()
    }
}
