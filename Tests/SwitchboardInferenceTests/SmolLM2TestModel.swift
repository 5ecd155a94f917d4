import Foundation
import Testing
@testable import SwitchboardInference

/// Locates the instruct model (SmolLM2-135M-Instruct, byte-level BPE) fetched by
/// `Scripts/fetch-model.sh smollm2`, or the file named by `SWITCHBOARD_CHAT_MODEL_PATH`.
enum SmolLM2TestModel {
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SWITCHBOARD_CHAT_MODEL_PATH"], !path.isEmpty { return path }
        return NSHomeDirectory() + "/.cache/switchboard/models/SmolLM2-135M-Instruct.Q4_1.gguf"
    }

    /// Run when the model exists, and always under CI (so CI fails loudly instead of skipping).
    static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil || FileManager.default.fileExists(atPath: path)
    }

    static let skipMessage: Comment =
        "SmolLM2 model file missing: run Scripts/fetch-model.sh smollm2 (or set SWITCHBOARD_CHAT_MODEL_PATH)"

    /// Opened once per test process and shared read-only.
    static let file: Result<GGUFFile, GGUFError> = Result { () throws(GGUFError) in try GGUFFile(contentsOf: path) }

    static let tokenizer: Result<Tokenizer, any Error> = Result { try Tokenizer(gguf: try file.get()) }

    /// `Tests/Fixtures/golden/smollm2`: llama.cpp's outputs on this model file.
    static let goldenDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden/smollm2").standardized
}

extension Trait where Self == ConditionTrait {
    /// Enables a test when the SmolLM2 model is present or CI is set.
    static var requiresSmolLM2Model: Self { .enabled(if: SmolLM2TestModel.isAvailable, SmolLM2TestModel.skipMessage) }
}
