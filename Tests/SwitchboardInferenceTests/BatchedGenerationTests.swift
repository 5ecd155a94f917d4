import Testing
@testable import SwitchboardInference

/// Continuous batching on the real models: sequences that run together, join while others decode and
/// leave early produce exactly the ids each produces alone.
@Suite(.serialized) struct BatchedGenerationTests {
    static let prompts = [
        "What is the capital of France?", "Name three primary colors.", "Write a haiku about autumn leaves.",
        "How many days are in a leap year?", "Explain what a load balancer does in one paragraph.",
    ]

    static func collect(_ stream: AsyncThrowingStream<GenerationEvent, any Error>) async throws -> (ids: [Int32], summary: GenerationSummary?) {
        var ids: [Int32] = []
        var summary: GenerationSummary?
        for try await event in stream {
            switch event {
            case .token(let token): ids.append(token.id)
            case .finished(let s): summary = s
            }
        }
        return (summary?.generatedIDs ?? ids, summary)
    }

    /// What `ids` generates alone on the reference path: one `GenerationLoop` on a fresh `InferenceSession`.
    static func alone(_ model: LanguageModel, _ ids: [Int32], options: GenerationOptions, contextLength: Int? = nil) throws -> [Int32] {
        let loop = GenerationLoop(session: InferenceSession(model: model, contextLength: contextLength), options: options,
                                  elapsed: { .zero }, isCancelled: { false })
        return try loop.run(prompt: ids) { _ in }.generatedIDs
    }

    /// Alone (the reference path, one at a time) versus all at once through a `BatchedGenerator` with
    /// room for three: two wait, then join as the first ones finish; greedy ids identical.
    func check(_ model: LanguageModel, inputs: [[Int32]], maxTokens: [Int]) async throws {
        let expected = try zip(inputs, maxTokens).map { try Self.alone(model, $0, options: GenerationOptions(maxTokens: $1), contextLength: 512) }
        let batched = BatchedGenerator(model: model, capacity: 3, contextLength: 512)
        let results = try await withThrowingTaskGroup(of: (Int, [Int32], FinishReason?).self) { group in
            for (i, ids) in inputs.enumerated() {
                group.addTask {
                    let (out, summary) = try await Self.collect(batched.events(ids: ids, options: GenerationOptions(maxTokens: maxTokens[i])))
                    return (i, out, summary?.finishReason)
                }
            }
            var results = [[Int32]](repeating: [], count: inputs.count)
            for try await (i, out, reason) in group {
                results[i] = out
                #expect(reason != nil && reason != .cancelled)
            }
            return results
        }
        for i in inputs.indices { #expect(results[i] == expected[i], "sequence \(i)") }
        #expect(expected.contains { !$0.isEmpty })
    }

    @Test(.requiresSmolLM2Model) func smolLM2BatchedEqualsAlone() async throws {
        let model = try chatFidelityModel.get()
        let template = try #require(model.chatTemplate)
        let inputs = Self.prompts.map { model.tokenizer.encode(template.render([ChatTurn(.system, "Answer briefly."), ChatTurn(.user, $0)]),
                                                               parseSpecial: true) }
        try await check(model, inputs: inputs, maxTokens: [24, 8, 32, 16, 40])
    }

    @Test(.requiresModel) func gemmaBatchedEqualsAlone() async throws {
        let model = try fidelityModel.get()
        let prompts = ["The capital of France is", "Once upon a time, in a small village by the sea,", "The three primary colors are",
                       String(repeating: "The committee reviewed the proposal in detail. ", count: 12), "In 1969, Neil Armstrong"]
        let inputs = prompts.map { model.tokenizer.encode($0) }
        try await check(model, inputs: inputs, maxTokens: [16, 24, 8, 20, 12])
    }

    @Test(.requiresSmolLM2Model) func cancelledSequenceLeavesAndOthersFinish() async throws {
        let model = try chatFidelityModel.get()
        let batched = BatchedGenerator(model: model, capacity: 2, contextLength: 256)
        let ids = model.tokenizer.encode(try #require(model.chatTemplate).render([ChatTurn(.user, "Tell me a long story.")]), parseSpecial: true)
        var pieces = 0
        for try await event in batched.events(ids: ids, options: GenerationOptions(maxTokens: 200)) {
            if case .token = event { pieces += 1 }
            if pieces == 3 { break }
        }
        #expect(pieces == 3)
        // Both slots are free again: two more requests run to completion.
        async let a = Self.collect(batched.events(ids: ids, options: GenerationOptions(maxTokens: 5)))
        async let b = Self.collect(batched.events(ids: ids, options: GenerationOptions(maxTokens: 5)))
        let (first, second) = try await (a, b)
        #expect(first.ids.count == 5 && first.ids == second.ids)
    }

    @Test(.requiresSmolLM2Model) func promptBeyondTheContextIsATypedError() async throws {
        let model = try chatFidelityModel.get()
        let batched = BatchedGenerator(model: model, capacity: 2, contextLength: 16)
        await #expect(throws: InferenceError.contextLengthExceeded(limit: 16, requested: 40)) {
            _ = try await Self.collect(batched.events(ids: [Int32](repeating: 42, count: 40), options: GenerationOptions(maxTokens: 4)))
        }
    }

    /// Prompts with a common start, all at once: the first computes it, the others copy it from that
    /// slot (`BatchedSession.share`) and still produce exactly what each produces alone.
    @Test func promptsWithACommonStartShareItAndAnswerAsAlone() async throws {
        let model = try SyntheticLlamaModel(arch: "llama").load()
        let common: [Int32] = [72, 101, 108, 108, 111, 256, 33, 10, 7, 72, 101, 108, 108, 111, 256, 33]
        let inputs = [common + [72, 101], common + [108, 111, 256], common + [33, 10, 7, 72]]
        let expected = try inputs.map { try BatchedGenerationTests.alone(model, $0, options: GenerationOptions(maxTokens: 12)) }
        let batched = BatchedGenerator(model: model, capacity: 3)
        let runs = try await withThrowingTaskGroup(of: (Int, [Int32], Int).self) { group in
            for (i, ids) in inputs.enumerated() {
                group.addTask {
                    let (out, summary) = try await BatchedGenerationTests.collect(batched.events(ids: ids, options: GenerationOptions(maxTokens: 12)))
                    return (i, out, summary?.reusedPromptTokens ?? -1)
                }
            }
            var runs = [([Int32], Int)](repeating: ([], 0), count: inputs.count)
            for try await (i, out, reused) in group { runs[i] = (out, reused) }
            return runs
        }
        for i in inputs.indices { #expect(runs[i].0 == expected[i], "sequence \(i)") }
        #expect(runs.map { $0.1 }.sorted() == [0, common.count, common.count])
        #expect(BatchedSession(model: model, capacity: 1).sharesPrefixes)
    }

    /// K-quant weights round by batch size (llama.cpp's GEMM and GEMV orders differ), so Gemma's
    /// slots never share.
    @Test(.requiresModel) func kQuantModelsDoNotSharePrefixes() throws {
        #expect(!BatchedSession(model: try fidelityModel.get(), capacity: 1).sharesPrefixes)
    }
}

/// KV reuse: a request that starts with a finished request's tokens (a conversation's next turn)
/// evaluates only the new ones; with reuse off, or after a different prompt, nothing is reused.
@Suite(.serialized, .requiresSmolLM2Model) struct PrefixReuseTests {
    @Test func nextTurnReusesTheCachedPrefix() async throws {
        let model = try chatFidelityModel.get()
        let template = try #require(model.chatTemplate)
        let turn1 = model.tokenizer.encode(template.segments([ChatTurn(.system, "Answer briefly."), ChatTurn(.user, "Name three primary colors.")]))
        for reuse in [true, false] {
            let generator = BatchedGenerator(model: model, capacity: 2, contextLength: 512, reusePrefixes: reuse)
            let first = try await BatchedGenerationTests.collect(generator.events(ids: turn1, options: GenerationOptions(maxTokens: 12)))
            let answer = first.ids
            #expect(first.summary?.reusedPromptTokens == 0)
            // The same prompt again is not continued from its own slot; with reuse it takes all but its
            // last token from the other slot's fresh prompt pass (SmolLM2's formats give the same bits
            // in any batch), so it answers the same either way.
            let again = try await BatchedGenerationTests.collect(generator.events(ids: turn1, options: GenerationOptions(maxTokens: 12)))
            #expect(again.summary?.reusedPromptTokens == (reuse ? turn1.count - 1 : 0) && again.ids == answer)
            // The next turn: the whole first exchange, then a new user message.
            let turn2 = turn1 + answer + model.tokenizer.encode(template.segments([ChatTurn(.user, "And three secondary ones?")]), addBOS: false)
            let second = try await BatchedGenerationTests.collect(generator.events(ids: turn2, options: GenerationOptions(maxTokens: 8)))
            let reused = try #require(second.summary?.reusedPromptTokens)
            if reuse {
                // Everything the cache held: the prompt and every answer token that was fed back.
                #expect(reused >= turn1.count && reused < turn2.count, "reused \(reused) of \(turn2.count)")
            } else {
                #expect(reused == 0)
            }
            #expect(!second.ids.isEmpty)
            // An unrelated prompt finds no useful prefix.
            let other = try await BatchedGenerationTests.collect(generator.events(ids: model.tokenizer.encode("Completely different text."),
                                                                                  options: GenerationOptions(maxTokens: 2)))
            #expect((other.summary?.reusedPromptTokens ?? -1) < 4)
        }
    }
}
