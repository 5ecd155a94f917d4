import Foundation
import Testing
@testable import SwitchboardInference

/// One model shared by every real-model test (loaded on first use, thread-safe global init).
let fidelityModel: Result<LanguageModel, InferenceError> = Result { () throws(InferenceError) -> LanguageModel in
    try LanguageModel.load(from: GGUFTestModel.path)
}

/// The SmolLM2 instruct model, shared the same way.
let chatFidelityModel: Result<LanguageModel, InferenceError> = Result { () throws(InferenceError) -> LanguageModel in
    try LanguageModel.load(from: SmolLM2TestModel.path)
}

/// `Tests/Fixtures/golden/<model>/greedy_public.json` (llama.cpp outputs for the same model file).
struct GreedyGolden: Decodable {
    struct Case: Decodable {
        var prompt: String
        var prompt_ids: [Int32]
        var greedy_ids: [Int32]
        var teacher_forced_top1: [Int32]
        var last_prompt_top5: [[Double]]
    }
    var cases: [Case]

    /// `model`: the fixture folder, `gemma3` or `smollm2`.
    static func load(_ model: String = "gemma3") throws -> GreedyGolden {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Tests/Fixtures/golden/\(model)/greedy_public.json")
        return try JSONDecoder().decode(GreedyGolden.self, from: Data(contentsOf: url))
    }
}

extension Trait where Self == ConditionTrait {
    /// Real-model tests: run when the model exists or CI is set.
    static var requiresModel: Self { .requiresGGUFModel }
}
