import Testing
@testable import SwitchboardInference

/// Greedy decoding (one token per forward pass, as llama.cpp generated the golden ids).
///
/// Gemma's golden outputs come from an AVX-512 build of llama.cpp, whose exp polynomial, softmax
/// lanes and f16 attention dots round differently from an AVX2 build (`ReferenceBuild`). So these
/// sessions follow the AVX-512 order on any machine (the SmolLM2 tests follow AVX2 for the same
/// reason): on an AVX2-only CPU this checks the AVX-512 path it cannot run natively.
@Suite(.requiresModel, .serialized) struct FidelityGreedyTests {
    /// Decodes one token at a time along llama.cpp's greedy continuation: per position our argmax
    /// must agree with its greedy choice, and the first 16 greedy tokens must be identical for at
    /// least 7 of the 8 prompts (the engine reproduces llama.cpp's kernels bit for bit, so all agree).
    @Test func greedyDecodingAgreesWithLlamaCpp() throws {
        let model = try fidelityModel.get()
        let golden = try GreedyGolden.load()
        let session = InferenceSession(model: model, contextLength: 128, reference: .avx512)
        var agree = 0, total = 0, prefixMatches = 0
        for c in golden.cases {
            session.reset()
            var logits = try session.prefill(c.prompt_ids)
            var divergedAt: Int?
            for (i, expected) in c.greedy_ids.enumerated() {
                let mine = Int32(LogitMath.argmax(logits))
                total += 1
                if mine == expected { agree += 1 } else if divergedAt == nil { divergedAt = i }
                if i + 1 < c.greedy_ids.count { logits = try session.decode(expected) }
            }
            if (divergedAt ?? 64) >= 16 { prefixMatches += 1 }
        }
        let rate = Double(agree) / Double(total)
        print("fidelity: one-token-at-a-time greedy agreement \(agree)/\(total) = \(rate); first-16 identical for \(prefixMatches)/\(golden.cases.count)")
        #expect(total == 512)
        #expect(rate >= 0.99)
        #expect(prefixMatches >= 7)
    }

    @Test func generatorGreedyTextMatchesSessionDecoding() async throws {
        let model = try fidelityModel.get()
        let golden = try GreedyGolden.load()
        let c = golden.cases[0]
        let generator = BatchedGenerator(model: model, capacity: 1, contextLength: 128)
        var ids: [Int32] = []
        var summary: GenerationSummary?
        for try await event in generator.events(ids: c.prompt_ids, options: GenerationOptions(maxTokens: 8)) {
            switch event {
            case .token(let token): ids.append(token.id)
            case .finished(let s): summary = s
            }
        }
        let s = try #require(summary)
        #expect(s.finishReason == .maxTokens)
        #expect(s.promptTokens == c.prompt_ids.count)
        #expect(s.completionTokens == 8)
        #expect(s.generatedIDs == ids)
        #expect(ids == Array(c.greedy_ids.prefix(8)))
    }
}
