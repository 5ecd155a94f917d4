import Foundation
import Synchronization
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
        let generator = BatchedGenerator(model: model, capacity: 1, contextLength: 4)
        await #expect(throws: InferenceError.contextLengthExceeded(limit: 4, requested: 6)) {
            for try await _ in generator.events(ids: [2, 3, 4, 5, 6, 7]) {}
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
        let generator = BatchedGenerator(model: model, capacity: 1, contextLength: 1024)
        let ids = model.tokenizer.encode("Once upon a time", addBOS: true, parseSpecial: true)
        // The summary as the batch thread delivers it (after the drop, nobody reads the stream).
        let summary = Mutex<GenerationSummary?>(nil)
        let consumer = Task {
            var seen = 0
            let events = generator.events(ids: ids, options: GenerationOptions(maxTokens: 900)) { event in
                if case .finished(let value) = event { summary.withLock { $0 = value } }
                return event
            }
            for try await _ in events {
                seen += 1
                if seen == 2 { break }
            }
            return seen
        }
        #expect(try await consumer.value == 2)
        for _ in 0..<12_000 where summary.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        let finished = summary.withLock { $0 }
        print("generation: dropped stream stopped after \(finished?.completionTokens ?? -1) tokens")
        #expect(finished?.finishReason == .cancelled)
        #expect((finished?.completionTokens ?? 900) < 900)
    }

    @Test func stopSequenceEndsGenerationAndIsNotEmitted() async throws {
        let model = try fidelityModel.get()
        let golden = try GreedyGolden.load()
        let c = golden.cases[0]
        let generator = BatchedGenerator(model: model, capacity: 1, contextLength: 128)
        // Greedy output of the first case, then a stop on a word from its middle.
        var full = ""
        for try await event in generator.events(ids: c.prompt_ids, options: GenerationOptions(maxTokens: 12)) {
            if case .token(let token) = event { full += token.text }
        }
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
