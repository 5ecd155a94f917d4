import Foundation
import Switchboard
import SwitchboardInference
import Testing
@testable import SwitchboardLocal

/// The real Gemma 3 270M model, loaded once and shared by every test that needs it.
enum RealModel {
    /// The deadline for the runtime's requests in these tests. A full test run shares two cores among
    /// hundreds of suites and starves the engine's threads, so the 30 s default (a safety net for apps)
    /// would cut answers that are only slow; these tests check the answers, not the deadline.
    static let testDeadline = RequestDeadline(base: .seconds(300))

    static let path: String = {
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_MODEL_PATH"], !path.isEmpty { return path }
        return ModelRegistry.default.path(for: .gemma3_270m)
    }()

    /// Run when the file is there, and always under CI (a missing model must fail there, not skip).
    static let enabled = FileManager.default.fileExists(atPath: path) || ProcessInfo.processInfo.environment["CI"] != nil
    static let skipReason: Comment = "model file not found at \(path): run Scripts/fetch-model.sh (or set SWITCHBOARD_MODEL_PATH)"

    /// The instruct model (SmolLM2), for the chat tests.
    static let chatPath: String = {
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_CHAT_MODEL_PATH"], !path.isEmpty { return path }
        return ModelRegistry.default.path(for: .smolLM2_135mInstruct)
    }()
    static let chatEnabled = FileManager.default.fileExists(atPath: chatPath) || ProcessInfo.processInfo.environment["CI"] != nil
    static let chatSkipReason: Comment = "chat model not found at \(chatPath): run Scripts/fetch-model.sh (or set SWITCHBOARD_CHAT_MODEL_PATH)"

    /// The provider every real-model test uses (never unloaded for idleness).
    static let provider = LocalModelProvider(configuration: .gemma3_270m, modelPath: path,
                                             loader: LocalEngineLoader(threads: 2), idleTimeout: nil)

    /// The engine on its own, for reference outputs computed without the provider.
    static let reference = Task { () throws -> LanguageModel in try LanguageModel.load(from: path) }

    /// Greedy continuation straight from the engine's session: prefill, argmax, decode.
    static func referenceGreedy(_ prompt: String, tokens: Int) async throws -> String {
        let model = try await reference.value
        let session = InferenceSession(model: model, contextLength: 512, threads: 2)
        var logits = try session.prefill(model.tokenizer.encode(prompt, addBOS: true))
        var ids: [Int32] = []
        for step in 0..<tokens {
            let next = Sampler.argmax(UnsafeBufferPointer(logits))
            if model.tokenizer.endOfGenerationIDs.contains(next) { break }
            ids.append(next)
            if step < tokens - 1 { logits = try session.decode(next) }
        }
        return model.tokenizer.decode(ids)
    }
}
