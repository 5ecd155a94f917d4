import Foundation
import Testing
@testable import Switchboard
@testable import SwitchboardLocal
import SwitchboardTestKit

/// The trained head on the real encoder, with texts written for this test (not in the training corpus).
@Suite("On-device privacy classifier (all-MiniLM-L6-v2)",
       .enabled(if: FileManager.default.fileExists(atPath: OnDeviceEmbedder.defaultDirectory() + "/model.safetensors")
                || ProcessInfo.processInfo.environment["CI"] != nil, "run Scripts/fetch-model.sh minilm"))
struct PrivacyClassifierModelTests {
    static let privateTexts = [
        "the oncologist called this morning, the tumour has grown and I start radiation on Monday",
        "I haven't eaten properly in weeks and I keep making myself throw up after dinner",
        "we can't pay the electricity bill this month and the bailiffs came to our door yesterday",
        "my husband screams at me and broke my phone so I couldn't call my sister",
    ]
    static let publicTexts = [
        "what is the capital of Peru",
        "write a Python function that returns the nth Fibonacci number",
        "what are the opening hours of the British Museum",
        "explain how photosynthesis turns light into sugar",
    ]

    @Test("The trained head keeps private statements home and lets plain questions go")
    func trainedHead() async throws {
        let embedder = try OnDeviceEmbedder()
        let classifier = EmbeddingPrivacyClassifier(embedder: embedder)
        #expect(classifier.head.weights.count == embedder.dimension)
        let privateScores = try await classifier.scores(Self.privateTexts)
        let publicScores = try await classifier.scores(Self.publicTexts)
        #expect(privateScores.filter { $0 >= classifier.threshold }.count >= 3, "\(privateScores)")
        #expect(publicScores.allSatisfy { $0 < classifier.threshold }, "\(publicScores)")
    }

    @Test("Long texts are read in windows: a private sentence deep in a public note is found")
    func windows() async throws {
        let classifier = EmbeddingPrivacyClassifier(embedder: try OnDeviceEmbedder())
        let filler = String(repeating: "The committee reviewed the quarterly schedule for the museum's new wing and the parking plan. ", count: 30)
        let scores = try await classifier.scores([filler, filler + Self.privateTexts[0] + " " + filler])
        #expect(scores[1] > scores[0])
        #expect(EmbeddingPrivacyClassifier.windows(filler, words: 96).count > 3)
    }
}
