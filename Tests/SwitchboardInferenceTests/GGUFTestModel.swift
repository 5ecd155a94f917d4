import Foundation
import Testing
@testable import SwitchboardInference

/// Locates the real model for tests that need it (fetched by `Scripts/fetch-model.sh`).
enum GGUFTestModel {
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SWITCHBOARD_MODEL_PATH"], !path.isEmpty { return path }
        return NSHomeDirectory() + "/.cache/switchboard/models/gemma-3-270m-q4_k_m.gguf"
    }

    /// Run when the model exists, and always under CI (so CI fails loudly instead of skipping).
    static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil || FileManager.default.fileExists(atPath: path)
    }

    static let skipMessage: Comment = "model file missing: run Scripts/fetch-model.sh (or set SWITCHBOARD_MODEL_PATH)"

    /// Opened once per test process and shared read-only.
    static let file: Result<GGUFFile, GGUFError> = Result { () throws(GGUFError) in try GGUFFile(contentsOf: path) }

    static func open() throws -> GGUFFile { try file.get() }
}

extension Trait where Self == ConditionTrait {
    /// Enables a test when the real model is present or CI is set.
    static var requiresGGUFModel: Self { .enabled(if: GGUFTestModel.isAvailable, GGUFTestModel.skipMessage) }
}
