import Foundation
import Testing
@testable import SwitchboardInference

/// Prompt-lookup drafting, its schedule and jump-forward, without a model.
@Suite struct PromptLookupTests {
    @Test func draftsWhatFollowedTheLatestLongestMatch() {
        // "… Okonkwo ( 555 - 0142 ) …" seen in the prompt; the text so far ends with "Okonkwo (".
        let prompt: [Int32] = [1, 7, 8, 9, 40, 41, 42, 43, 2, 7, 8, 50, 51]
        #expect(PromptLookup().draft(prompt: prompt, generated: [3, 7, 8, 9], limit: 3) == [40, 41, 42])
        // The limit bounds it; the continuation may run into the text so far.
        #expect(PromptLookup().draft(prompt: prompt, generated: [3, 7, 8, 9], limit: 1) == [40])
        // "7 8" occurs twice: the latest occurrence wins (its continuation is 50, not 9).
        #expect(PromptLookup().draft(prompt: prompt, generated: [7, 8], limit: 2) == [50, 51])
    }

    @Test func noMatchOrTooShortASuffixDraftsNothing() {
        #expect(PromptLookup().draft(prompt: [1, 2, 3, 4], generated: [5, 6], limit: 4).isEmpty)
        // A single shared token is below the shortest match.
        #expect(PromptLookup().draft(prompt: [1, 2, 3, 4], generated: [9, 2], limit: 4).isEmpty)
        #expect(PromptLookup().draft(prompt: [], generated: [], limit: 4).isEmpty)
        #expect(PromptLookup().draft(prompt: [1, 2, 3, 1, 2], generated: [], limit: 0).isEmpty)
    }

    @Test func draftsGrowWhileConfirmedAndShrinkWhenNot() {
        var drafting = Drafting()
        let start = drafting.limit(.lookup3, threshold: 0.35)
        for _ in 0..<6 { drafting.record(.lookup3, drafted: 8, confirmed: 8) }
        #expect(drafting.limit(.lookup3, threshold: 0.35) > start)
        #expect(drafting.limit(.lookup3, threshold: 0.35) <= Drafting.most)
        // Each source keeps its own record.
        #expect(drafting.limit(.schema, threshold: 0.35) == start)
        for _ in 0..<12 { drafting.record(.lookup3, drafted: 4, confirmed: 0) }
        #expect(drafting.limit(.lookup3, threshold: 0.35) == 0)
        // Passes without drafts bring it back to trying.
        for _ in 0..<30 { drafting.record(nil, drafted: 0, confirmed: 0) }
        #expect(drafting.limit(.lookup3, threshold: 0.35) >= 1)
        // A row that must bring a whole token is never worth drafting.
        #expect(drafting.limit(.lookup4, threshold: 1) == 0)
        #expect(DraftSource(matchLength: 2) == .lookup2 && DraftSource(matchLength: 7) == .lookup4)
    }

    @Test func aRowMustBringMoreWhenMoreSequencesShareThePass() {
        var cost = DecodeCost()
        #expect(cost.threshold(sequences: 1) < cost.threshold(sequences: 8))
        cost.recordPrefill(rows: 64, seconds: 0.16)  // 2.5 ms a row
        cost.recordDecode(rows: 1, seconds: 0.0071)  // 4.6 ms a pass besides
        #expect(abs(cost.threshold(sequences: 1) - 0.0025 / 0.0071) < 1e-6)
        #expect(abs(cost.threshold(sequences: 8) - 0.02 / 0.0246) < 1e-6)
        // A busy moment (a slow pass) moves the estimate only a little.
        cost.recordDecode(rows: 1, seconds: 0.5)
        #expect(cost.threshold(sequences: 1) > 0.3)
        // A frozen model learns nothing.
        var frozen = DecodeCost.frozen(perRow: 0.0025, fixed: 0.0046)
        let still = frozen
        frozen.recordPrefill(rows: 64, seconds: 9)
        frozen.recordDecode(rows: 1, seconds: 9)
        #expect(frozen == still && abs(frozen.threshold(sequences: 1) - 0.0025 / 0.0071) < 1e-9)
        // Nonsense timings change nothing.
        let before = cost
        cost.recordPrefill(rows: 0, seconds: 1)
        cost.recordDecode(rows: 3, seconds: -1)
        #expect(cost == before)
    }

    @Test func forcedBytesFollowTheSchemaUntilTheModelHasAChoice() throws {
        let item = JSONGrammar.object([.init("title", .string()), .init("rating", .integer(minimum: 1, maximum: 10))])
        let constraint = try JSONConstraint(.array(items: item, minItems: 1))
        // Nothing written yet: the array opens; then a gap whose spacing is not known yet.
        #expect(String(decoding: JSONAutomaton(constraint).forcedBytes(limit: 64), as: UTF8.self) == "[")
        // Two items written with ", " and ": ": the next one is drafted in that style up to its free title.
        let written = Array(#"[{"title": "Dune", "rating": 7}, {"title": "Emma", "rating": 8}, "#.utf8)
        var automaton = JSONAutomaton(constraint), spacing = JSONSpacing()
        let fed = automaton.feed(written)
        spacing.feed(written)
        #expect(fed)
        #expect(String(decoding: automaton.forcedBytes(limit: 64, spacing: spacing), as: UTF8.self) == #"{"title": ""#)
        #expect(automaton.forcedBytes(limit: 3, spacing: spacing).count == 3)
        // After the title, the comma and the next key; the number is the model's (and so is the gap
        // before it: whitespace is drafted only in front of a forced byte).
        let titled = Array(#"{"title": "Ran""#.utf8)
        let more = automaton.feed(titled)
        spacing.feed(titled)
        #expect(more)
        #expect(String(decoding: automaton.forcedBytes(limit: 64, spacing: spacing), as: UTF8.self) == #", "rating":"#)
    }

    @Test func spacingRemembersEachGapAtItsDepth() {
        var spacing = JSONSpacing()
        spacing.feed(Array("{\n  \"a\": [1, 2],\n  \"b\": \"x, y: z\"\n}".utf8))
        // The closing brace's gap was a newline at depth 1; the string's ", " and ": " are content.
        #expect(spacing.last == UInt8(ascii: "}"))
        var open = JSONSpacing()
        open.feed(Array("{\n  \"a\": 1,\n  ".utf8))
        // The first member after a comma: that gap is not known yet.
        #expect(open.whitespace(before: UInt8(ascii: "\"")) == nil)
        open.feed(Array("\"b\": 2,\n  ".utf8))
        // Now it is, and its newline and indent are already written.
        #expect(open.whitespace(before: UInt8(ascii: "\"")) == [])
        open.feed(Array("\"c\": 3".utf8))
        #expect(open.whitespace(before: UInt8(ascii: "}")) == nil)
        #expect(open.whitespace(before: UInt8(ascii: ",")) == [])
        var inside = JSONSpacing()
        inside.feed(Array("{\"k\": \"a: b".utf8))
        #expect(inside.inString && inside.whitespace(before: UInt8(ascii: ":")) == nil)
    }
}

/// Speculative decoding on the real models: drafted tokens are confirmed by the model's own choice,
/// so every output equals plain decoding token for token, alone, batched, sampled and constrained.
@Suite(.serialized) struct SpeculativeDecodingTests {
    static let note = """
        Site meeting, March 4, 2025, Harbor Street renovation. Present: Marta Okonkwo (project manager, 555-0142), \
        Dieter Hallström (structural engineer, 555-0187) and Priya Raghunathan (client representative, 555-0119). \
        The east wall footing needs 40 cm more depth; revised drawing rev. C by Friday. Electrician Samuel Achterberg \
        (555-0166) starts rough-in on March 11. Budget line 4.2 rises from $48,300 to $52,900. Next meeting March 18 \
        at 9:30 with Lucía Ferreira (city inspection, 555-0133).
        """

    /// A generator whose draft policy takes a pass to cost what it does on a 2-core Zen 4 (2.5 ms a row,
    /// 4.6 ms besides), whatever this machine's speed (a sanitizer's or a loaded machine's timings
    /// would otherwise change how much is drafted; never the output).
    static func generator(_ model: LanguageModel, capacity: Int = 1, reusePrefixes: Bool = false) -> BatchedGenerator {
        BatchedGenerator(model: model, capacity: capacity, contextLength: 1024, threads: 2, reusePrefixes: reusePrefixes, kvBudgetBytes: nil,
                         prefixCacheBytes: nil, clock: ContinuousClock(), decodeCost: .frozen(perRow: 0.0025, fixed: 0.0046))
    }

    static func run(_ generator: BatchedGenerator, _ ids: [Int32], _ options: GenerationOptions) async throws -> GenerationSummary {
        try #require(try await BatchedGenerationTests.collect(generator.events(ids: ids, options: options)).summary)
    }

    static func chat(_ model: LanguageModel, _ text: String) throws -> [Int32] {
        model.tokenizer.encode(try #require(model.chatTemplate).render([ChatTurn(.user, text)]), parseSpecial: true)
    }

    @Test(.requiresSmolLM2Model) func extractionIsIdenticalInFewerPasses() async throws {
        let model = try chatFidelityModel.get()
        let ids = try Self.chat(model, "List every person in this note with their role and phone number.\n\n" + Self.note)
        let generator = Self.generator(model)
        let plain = try await Self.run(generator, ids, GenerationOptions(maxTokens: 120, speculative: false))
        let fast = try await Self.run(generator, ids, GenerationOptions(maxTokens: 120))
        #expect(fast.generatedIDs == plain.generatedIDs)
        #expect(plain.acceptedDraftTokens == 0 && plain.decodePasses >= plain.generatedIDs.count - 1)
        #expect(fast.acceptedDraftTokens > 0)
        #expect(fast.decodePasses + fast.acceptedDraftTokens == plain.decodePasses)
        #expect(fast.decodePasses * 3 < plain.decodePasses * 2, "the copied names and numbers come in runs")
        #expect(fast.finishReason == plain.finishReason)
    }

    /// Sampling draws from each row as plain decoding would (same seed, same draws), so it is
    /// identical too; and a stop sequence inside a drafted run ends it at the same token.
    @Test(.requiresSmolLM2Model, arguments: [UInt64(3), 11])
    func sampledAndStoppedOutputsAreIdentical(seed: UInt64) async throws {
        let model = try chatFidelityModel.get()
        let ids = try Self.chat(model, "Copy this note word for word.\n\n" + Self.note)
        let generator = Self.generator(model)
        let sampler = SamplerConfiguration(temperature: 0.7, topK: 40, seed: seed)
        for stops in [[], ["Samuel"]] {
            let plain = try await Self.run(generator, ids, GenerationOptions(maxTokens: 96, sampler: sampler, stopSequences: stops,
                                                                             speculative: false))
            let fast = try await Self.run(generator, ids, GenerationOptions(maxTokens: 96, sampler: sampler, stopSequences: stops))
            #expect(fast.generatedIDs == plain.generatedIDs)
            #expect(fast.finishReason == plain.finishReason)
        }
    }

    /// Sequences that draft and sequences that do not share passes; each equals its run alone.
    @Test(.requiresSmolLM2Model) func batchedSequencesWithAndWithoutDraftsEqualAlone() async throws {
        let model = try chatFidelityModel.get()
        let inputs = try [
            Self.chat(model, "Repeat the phone numbers in this note.\n\n" + Self.note),
            Self.chat(model, "Write a haiku about autumn leaves."),
            Self.chat(model, "Rewrite this note as a bullet list.\n\n" + Self.note),
        ]
        let expected = try inputs.map { try BatchedGenerationTests.alone(model, $0, options: GenerationOptions(maxTokens: 64), contextLength: 1024) }
        let generator = Self.generator(model, capacity: 3, reusePrefixes: true)
        let results = try await withThrowingTaskGroup(of: (Int, GenerationSummary).self) { group in
            for (i, ids) in inputs.enumerated() {
                group.addTask { (i, try await Self.run(generator, ids, GenerationOptions(maxTokens: 64))) }
            }
            var results: [Int: GenerationSummary] = [:]
            for try await (i, summary) in group { results[i] = summary }
            return results
        }
        for i in inputs.indices { #expect(results[i]?.generatedIDs == expected[i], "sequence \(i)") }
        #expect(results.values.contains { $0.acceptedDraftTokens > 0 })
    }

    /// K-quant weights (Gemma's Q4_K_M): every row of a pass is computed as a batch of one, so the
    /// bits do not depend on how many drafts ride along.
    @Test(.requiresModel) func gemmaContinuationIsIdentical() async throws {
        let model = try fidelityModel.get()
        let ids = model.tokenizer.encode("Names: Marta Okonkwo, Dieter Hallström, Priya Raghunathan. Again, the names: Marta")
        let generator = Self.generator(model)
        let plain = try await Self.run(generator, ids, GenerationOptions(maxTokens: 40, speculative: false))
        let fast = try await Self.run(generator, ids, GenerationOptions(maxTokens: 40))
        #expect(fast.generatedIDs == plain.generatedIDs)
        #expect(fast.acceptedDraftTokens > 0)
    }

    /// Jump-forward and lookup drafts under a schema: the same valid document in fewer passes.
    @Test(.requiresSmolLM2Model) func constrainedOutputIsIdenticalAndValid() async throws {
        let model = try chatFidelityModel.get()
        let grammar = JSONGrammar.object([
            .init("people", .array(items: .object([.init("name", .string()), .init("role", .string()), .init("phone", .string())]),
                                   minItems: 1)),
            .init("next_meeting", .string()),
        ])
        let ids = try Self.chat(model, "Extract the people and the next meeting from this note as JSON.\n\n" + Self.note)
        let generator = Self.generator(model)
        let constraint = try JSONConstraint(grammar)
        var texts: [String] = []
        var summaries: [GenerationSummary] = []
        for speculative in [false, true] {
            var text = ""
            var summary: GenerationSummary?
            for try await event in generator.events(ids: ids, options: GenerationOptions(maxTokens: 160, constraint: constraint,
                                                                                          speculative: speculative)) {
                switch event {
                case .token(let token): text += token.text
                case .finished(let s): summary = s
                }
            }
            texts.append(text)
            summaries.append(try #require(summary))
        }
        #expect(summaries[1].generatedIDs == summaries[0].generatedIDs)
        #expect(texts[1] == texts[0])
        try ConstrainedModelTests.expectValid(grammar, texts[1])
        #expect(summaries[1].acceptedDraftTokens > 0)
        #expect(summaries[1].decodePasses < summaries[0].decodePasses)
    }
}

/// `BatchedSession.decode` with a slot several times, on a tiny synthetic model (runs everywhere).
@Suite struct MultiRowDecodeTests {
    static func session() throws -> BatchedSession {
        var synthetic = SyntheticLlamaModel(arch: "llama")
        synthetic.contextLength = 64
        return BatchedSession(model: try synthetic.load(), capacity: 2)
    }

    static func logits(_ session: BatchedSession, _ steps: [(slot: Int, token: Int32)]) throws -> [[Float]] {
        var rows: [[Float]] = []
        try session.decode(steps) { _, logits in rows.append(Array(logits)) }
        return rows
    }

    /// A token and two drafts in one pass give the bits of three one-token passes; a rewind then
    /// continues as if only the confirmed part had been fed.
    @Test func rowsOfOneSlotEqualOnePassEach() throws {
        let prompt: [Int32] = [3, 17, 29, 41, 5]
        let one = try Self.session(), many = try Self.session()
        for s in [one, many] { _ = try s.prefill(prompt, from: 0, slot: 0) }
        var expected: [[Float]] = []
        for token in [Int32(7), 8, 9] { expected += try Self.logits(one, [(0, token)]) }
        #expect(try Self.logits(many, [(0, 7), (0, 8), (0, 9)]) == expected)
        #expect(many.position(of: 0) == prompt.count + 3)
        // Only 7 was confirmed: back to after it, then 12 as the next pass.
        many.rewind(0, to: prompt.count + 1)
        let fresh = try Self.session()
        _ = try fresh.prefill(prompt, from: 0, slot: 0)
        _ = try Self.logits(fresh, [(0, 7)])
        #expect(try Self.logits(many, [(0, 12)]) == (try Self.logits(fresh, [(0, 12)])))
    }

    /// A pass refused part-way (a token outside the vocabulary, a slot that does not exist) moves no
    /// slot: the next pass starts where the slot was.
    @Test func aRefusedPassMovesNothing() throws {
        let session = try Self.session(), reference = try Self.session()
        for s in [session, reference] { _ = try s.prefill([3, 4, 5], from: 0, slot: 1) }
        #expect(throws: InferenceError.self) { try session.decode([(1, 7), (1, 8), (1, -1)]) { _, _ in } }
        #expect(throws: InferenceError.self) { try session.decode([(1, 7), (9, 8)]) { _, _ in } }
        #expect(session.position(of: 1) == 3)
        #expect(try Self.logits(session, [(1, 7)]) == (try Self.logits(reference, [(1, 7)])))
    }
}
