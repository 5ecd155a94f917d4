import Foundation
import Testing
@testable import SwitchboardInference

/// Stop conditions, cancellation and the context limit with the real model.
@Suite(.requiresModel, .serialized) struct GenerationModelTests {
    @Test func contextLimitIsATypedError() throws {
        let model = try fidelityModel.get()
        let session = InferenceSession(model: model, contextLength: 8)
        #expect(throws: InferenceError.contextLengthExceeded(limit: 8, requested: 9)) {
            _ = try session.prefill([Int32](repeating: 2, count: 9))
        }
        _ = try session.prefill([Int32](repeating: 2, count: 8))
        #expect(throws: InferenceError.contextLengthExceeded(limit: 8, requested: 9)) { _ = try session.decode(2) }
        #expect(throws: InferenceError.emptyPrompt) { _ = try session.prefill([]) }
        #expect(throws: InferenceError.invalidToken(Int32(model.vocabularySize))) {
            session.reset(); _ = try session.prefill([2, Int32(model.vocabularySize)])
        }
    }

    /// A structurally valid file with NaN weights (a corrupt download that kept its layout) must
    /// not trap anywhere in the forward pass or the sampler: generation runs to its token limit.
    @Test func nanWeightsDoNotTrap() throws {
        let file = try GGUFTestModel.open()
        let norm = try file.tensor(named: "blk.0.attn_norm.weight")
        var bytes = Data(file.rawBytes)
        bytes.withUnsafeMutableBytes { raw in
            for i in 0..<norm.elementCount { raw.storeBytes(of: Float.nan, toByteOffset: norm.offset + 4 * i, as: Float.self) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-nan-\(UInt32.random(in: 0...UInt32.max)).gguf").path
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let model = try LanguageModel.load(from: path)
        let session = InferenceSession(model: model, contextLength: 64)
        let loop = GenerationLoop(session: session, options: GenerationOptions(maxTokens: 4), elapsed: { .zero }, isCancelled: { false })
        let summary = try loop.run(prompt: [2, 818, 5279, 529]) { _ in }
        #expect(summary.completionTokens + summary.promptTokens >= 4)
    }

    @Test func generatorReportsPromptOverContextLimit() async throws {
        let model = try fidelityModel.get()
        let generator = LocalGenerator(model: model, contextLength: 4)
        await #expect(throws: InferenceError.contextLengthExceeded(limit: 4, requested: 6)) {
            for try await _ in generator.generate(ids: [2, 3, 4, 5, 6, 7]) {}
        }
    }

    @Test func loopStopsWithinOneTokenOfCancellation() throws {
        let model = try fidelityModel.get()
        let session = InferenceSession(model: model, contextLength: 64)
        var emitted = 0
        let loop = GenerationLoop(session: session, options: GenerationOptions(maxTokens: 40), elapsed: { .zero },
                                  isCancelled: { emitted >= 3 })
        let summary = try loop.run(prompt: [2, 818, 5279, 529]) { _ in emitted += 1 }
        #expect(summary.finishReason == .cancelled)
        #expect(summary.completionTokens == 3)
        #expect(emitted == 3)
    }

    @Test func droppingTheStreamCancelsGeneration() async throws {
        let model = try fidelityModel.get()
        let generator = LocalGenerator(model: model, contextLength: 1024)
        let consumer = Task {
            var seen = 0
            for try await _ in generator.generate(prompt: "Once upon a time", options: GenerationOptions(maxTokens: 900)) {
                seen += 1
                if seen == 2 { break }
            }
            return seen
        }
        #expect(try await consumer.value == 2)
        // Tokens came from inside the running generation, so this actor call runs after it ends.
        let summary = await generator.lastSummary
        print("generation: dropped stream stopped after \(summary?.completionTokens ?? -1) tokens")
        #expect(summary?.finishReason == .cancelled)
        #expect((summary?.completionTokens ?? 900) < 900)
    }

    @Test func stopSequenceEndsGenerationAndIsNotEmitted() async throws {
        let model = try fidelityModel.get()
        let golden = try GreedyGolden.load()
        let c = golden.cases[0]
        let generator = LocalGenerator(model: model, contextLength: 128)
        // Greedy output of the first case, then a stop on a word from its middle.
        var full = ""
        for try await token in generator.generate(ids: c.prompt_ids, options: GenerationOptions(maxTokens: 12)) { full += token.text }
        let words = full.split(separator: " ")
        try #require(words.count >= 4)
        let stop = String(words[2])
        var text = ""
        var summary: GenerationSummary?
        for try await event in generator.events(ids: c.prompt_ids, options: GenerationOptions(maxTokens: 12, stopSequences: [stop])) {
            switch event {
            case .token(let t): text += t.text
            case .finished(let s): summary = s
            }
        }
        #expect(summary?.finishReason == .stopSequence(stop))
        #expect(!text.contains(stop))
        #expect(full.hasPrefix(text))
    }
}
