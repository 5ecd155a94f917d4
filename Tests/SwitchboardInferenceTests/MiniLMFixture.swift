import Foundation
import Testing
@testable import SwitchboardInference

/// all-MiniLM-L6-v2: the golden cases in `Tests/Fixtures/golden/minilm`, and the model folder fetched by
/// `Scripts/fetch-model.sh minilm` (or named by `SWITCHBOARD_EMBEDDING_MODEL_PATH`).
enum MiniLMFixture {
    struct Case: Decodable {
        let text: String
        let ids: [Int32]
        let embedding: [Float]
    }

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden/minilm").standardized

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("embeddings_public.json")),
              let cases = try? JSONDecoder().decode([Case].self, from: data) else { return [] }
        return cases
    }()

    static let tokenizer: Result<WordPieceTokenizer, any Error> = Result {
        try WordPieceTokenizer(tokenizerJSON: Data(contentsOf: directory.appendingPathComponent("tokenizer.json")))
    }

    static var modelPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SWITCHBOARD_EMBEDDING_MODEL_PATH"], !path.isEmpty { return path }
        return NSHomeDirectory() + "/.cache/switchboard/models/all-MiniLM-L6-v2"
    }

    /// Run when the model exists, and always under CI (so CI fails loudly instead of skipping).
    static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil
            || FileManager.default.fileExists(atPath: modelPath + "/model.safetensors")
    }

    static let skipMessage: Comment =
        "all-MiniLM-L6-v2 missing: run Scripts/fetch-model.sh minilm (or set SWITCHBOARD_EMBEDDING_MODEL_PATH)"

    static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        var dot = 0.0, na = 0.0, nb = 0.0
        for (x, y) in zip(a, b) { dot += Double(x) * Double(y); na += Double(x) * Double(x); nb += Double(y) * Double(y) }
        return dot / max((na * nb).squareRoot(), .leastNormalMagnitude)
    }
}

extension Trait where Self == ConditionTrait {
    static var requiresMiniLMModel: Self { .enabled(if: MiniLMFixture.isAvailable, MiniLMFixture.skipMessage) }
}
