import Testing
@testable import SwitchboardInference

/// The prefix cache inside the batched engine, on a tiny synthetic model (it runs everywhere): later
/// requests of other sessions start from a shared prompt's cached blocks and answer exactly as alone;
/// a session's forget drops only what it alone claims (and its idle slot's kept cache); a cache of 0
/// bytes, or a model whose bits depend on the batch, caches nothing.
@Suite struct PrefixCacheEngineTests {
    static func model() throws -> LanguageModel {
        var synthetic = SyntheticLlamaModel(arch: "llama")
        synthetic.contextLength = 256
        return try synthetic.load()
    }

    /// Two full blocks and a tail of "system prompt", then a short user part that differs per request.
    static let system: [Int32] = (0..<70).map { Int32(($0 * 37 + 11) % 256) }
    static func prompt(_ i: Int) -> [Int32] { system + (0..<5).map { Int32((i * 13 + $0 * 7 + 1) % 256) } }

    static let roomy = 4 << 20

    static func run(_ generator: BatchedGenerator, _ ids: [Int32], owner: UInt64?, maxTokens: Int = 8) async throws -> (ids: [Int32], reused: Int) {
        let (out, summary) = try await BatchedGenerationTests.collect(generator.events(ids: ids, options: GenerationOptions(maxTokens: maxTokens),
                                                                                       owner: owner))
        return (out, summary?.reusedPromptTokens ?? -1)
    }

    @Test func laterRequestsOfOtherSessionsStartFromTheCacheAndAnswerAsAlone() async throws {
        let model = try Self.model()
        let expected = try (0..<4).map { try BatchedGenerationTests.alone(model, Self.prompt($0), options: GenerationOptions(maxTokens: 8)) }
        for cacheBytes in [nil, 0] as [Int?] {
            // One slot, as the local provider often runs: each request overwrites the last one's cache.
            // (The budget is generous: this tiny model's caches are mostly page rounding.)
            let generator = BatchedGenerator(model: model, capacity: 1, kvBudgetBytes: Self.roomy, prefixCacheBytes: cacheBytes)
            for i in 0..<4 {
                let run = try await Self.run(generator, Self.prompt(i), owner: UInt64(i + 1))
                #expect(run.ids == expected[i], "request \(i), cache \(String(describing: cacheBytes))")
                #expect(run.reused == (i == 0 || cacheBytes == 0 ? 0 : Self.system.count), "request \(i)")
            }
            let status = await generator.prefixCacheStatus()
            if cacheBytes == 0 {
                #expect(status == PrefixCacheStatus())
            } else {
                // The two shared blocks, then each request's own tail block.
                #expect(status.blocks == 2 + 4 && status.tokens == 64 + 4 * 11 && status.bytes > 0 && status.bytes <= status.limit)
            }
        }
    }

    @Test func concurrentRequestsShareThroughTheCache() async throws {
        let model = try Self.model()
        let inputs = (0..<3).map { Self.prompt($0) }
        let expected = try inputs.map { try BatchedGenerationTests.alone(model, $0, options: GenerationOptions(maxTokens: 10)) }
        let generator = BatchedGenerator(model: model, capacity: 3)
        let runs = try await withThrowingTaskGroup(of: (Int, [Int32], Int).self) { group in
            for i in inputs.indices {
                group.addTask { let run = try await Self.run(generator, inputs[i], owner: nil, maxTokens: 10); return (i, run.ids, run.reused) }
            }
            var runs = [([Int32], Int)](repeating: ([], 0), count: inputs.count)
            for try await (i, ids, reused) in group { runs[i] = (ids, reused) }
            return runs
        }
        for i in inputs.indices { #expect(runs[i].0 == expected[i], "sequence \(i)") }
        #expect(runs.map(\.1).sorted() == [0, Self.system.count, Self.system.count])
    }

    @Test func forgettingASessionDropsWhatOnlyItClaimed() async throws {
        let model = try Self.model()
        let generator = BatchedGenerator(model: model, capacity: 1, kvBudgetBytes: Self.roomy)
        let first = try await Self.run(generator, Self.prompt(0), owner: 1)
        _ = try await Self.run(generator, Self.prompt(1), owner: 2)
        let before = await generator.prefixCacheStatus()
        #expect(before.blocksByOwner == [1: 3, 2: 3] && before.blocks == 4)
        await generator.forgetPrefixes(owner: 1)
        let after = await generator.prefixCacheStatus()
        #expect(after.blocksByOwner == [2: 3] && after.blocks == 3 && after.bytes < before.bytes)
        // Session 1's own tail is gone: its prompt again finds only the blocks session 2 also sent.
        let again = try await Self.run(generator, Self.prompt(0), owner: 3)
        #expect(again.reused == Self.system.count && again.ids == first.ids)

        // Session 2 continues its conversation in the one slot; its forget empties that slot too.
        let turn = Self.prompt(1) + [5, 6, 7]
        let answer = try await Self.run(generator, turn, owner: 2)
        let next = turn + answer.ids + [9, 10, 11]
        await generator.forgetPrefixes(owner: 2)
        let continued = try await Self.run(generator, next, owner: 2)
        #expect(continued.reused == Self.system.count, "kept \(continued.reused) of \(next.count)")
        #expect(continued.ids == (try BatchedGenerationTests.alone(model, next, options: GenerationOptions(maxTokens: 8))))
        // Without the forget, the slot continues the conversation from everything it held.
        let later = try await Self.run(generator, next + continued.ids + [12, 13], owner: 2)
        #expect(later.reused >= next.count)
    }

    /// A reset that arrives while the session's request runs: nothing of that request stays, neither
    /// its prompt's blocks nor its slot's cache, so its conversation's next turn starts from nothing.
    @Test func forgettingASessionWhileItsRequestRunsKeepsNothingOfIt() async throws {
        let model = try Self.model()
        let generator = BatchedGenerator(model: model, capacity: 1, kvBudgetBytes: Self.roomy)
        var ids: [Int32] = []
        var forgot = false
        for try await event in generator.events(ids: Self.prompt(0), options: GenerationOptions(maxTokens: 24), owner: 5) {
            guard case .token(let token) = event else { continue }
            ids.append(token.id)
            if !forgot { await generator.forgetPrefixes(owner: 5); forgot = true }
        }
        let status = await generator.prefixCacheStatus()
        #expect(status.blocksByOwner[5] == nil && status.blocks == 0)
        let next = Self.prompt(0) + ids + [9, 10]
        let turn = try await Self.run(generator, next, owner: 5)
        #expect(turn.reused == 0)
        #expect(turn.ids == (try BatchedGenerationTests.alone(model, next, options: GenerationOptions(maxTokens: 8))))
    }

    /// A KV budget that holds little more than one request: the cache gives up blocks rather than
    /// keep requests waiting, and never holds more than the slots leave.
    @Test func theCacheYieldsToRequestsWithinTheBudget() async throws {
        let model = try Self.model()
        let one = BatchedSession(model: model, capacity: 1).kvBytes(positions: Self.prompt(0).count + 8)
        let generator = BatchedGenerator(model: model, capacity: 2, kvBudgetBytes: one + one / 4)
        let expected = try (0..<5).map { try BatchedGenerationTests.alone(model, Self.prompt($0), options: GenerationOptions(maxTokens: 8)) }
        for i in 0..<5 {
            let run = try await Self.run(generator, Self.prompt(i), owner: UInt64(i))
            #expect(run.ids == expected[i])
            let status = await generator.prefixCacheStatus()
            // Only what the slots leave of the budget: never more than a quarter of one request here.
            #expect(status.bytes <= one / 4)
        }
    }

    /// K-quant weights round by batch size, so Gemma's reused prefixes would not be the bits a fresh
    /// pass computes: its engine keeps no prefix cache (only a conversation's own slot continues).
    @Test(.requiresModel) func kQuantModelsKeepNoPrefixCache() async throws {
        let generator = BatchedGenerator(model: try fidelityModel.get(), capacity: 1, contextLength: 256)
        #expect(await generator.prefixCacheStatus().limit == 0)
    }

    @Test func blocksCopyOutAndBackExactly() throws {
        let model = try Self.model()
        let a = KVCache(architecture: model.architecture, contextLength: 64, batch: 8)
        let b = KVCache(architecture: model.architecture, contextLength: 64, batch: 8)
        var key = [Float](repeating: 0, count: a.width), value = key
        for position in 0..<40 {
            for il in a.layers.indices {
                for i in 0..<a.width { key[i] = Float(position * 100 + il * 10 + i); value[i] = -Float(position + i) / 8 }
                a.store(layer: il, position: position, key: key, value: value)
            }
        }
        let block = a.block(8..<40)
        #expect(block.count == 32 && block.bytes == KVBlock.bytes(count: 32, layers: a.layers.count, width: a.width))
        b.load(block, count: 20, at: 8)
        // Positions 8..<28 hold a's numbers; the rest of b is as fresh (zero).
        for (x, y) in zip(a.layers, b.layers) {
            for position in 0..<40 {
                let copied = (8..<28).contains(position)
                for i in 0..<a.width {
                    #expect(y.keys[position * a.width + i] == (copied ? x.keys[position * a.width + i] : 0))
                    #expect(y.values[i * y.slots + position] == (copied ? x.values[i * x.slots + position] : 0))
                }
            }
        }
    }
}

/// The prefix cache on the real SmolLM2 file (Q4_1: its bits do not depend on the batch): requests of
/// different sessions sharing a system prompt, one after another in one slot and two at once, start
/// from each other's cached blocks and produce token for token what each produces alone on a fresh
/// `InferenceSession`.
@Suite(.serialized, .requiresSmolLM2Model) struct PrefixCacheSmolLM2Tests {
    static let system = """
        You are the assistant of a small bakery. Answer customers briefly and politely. The bakery opens at seven \
        in the morning and closes at six in the evening, and on Sundays at two. Bread is baked twice a day; \
        croissants only in the morning. Orders for cakes need two days' notice. We do not deliver, but orders \
        can be picked up at the counter. Prices: a loaf of sourdough costs four dollars, a croissant two dollars, \
        a birthday cake from thirty dollars.
        """
    static let questions = ["When do you open on Sunday?", "How much is a croissant?", "Can you deliver a cake to my office?",
                            "How early must I order a birthday cake?"]

    static func commonPrefix(_ a: [Int32], _ b: [Int32]) -> Int { zip(a, b).prefix { $0 == $1 }.count }

    @Test func laterRequestsReuseTheSystemPromptAndAnswerTokenForToken() async throws {
        let model = try chatFidelityModel.get()
        let template = try #require(model.chatTemplate)
        let inputs = Self.questions.map { model.tokenizer.encode(template.render([ChatTurn(.system, Self.system), ChatTurn(.user, $0)]),
                                                                 parseSpecial: true) }
        let options = GenerationOptions(maxTokens: 12)
        let expected = try inputs.map { try BatchedGenerationTests.alone(model, $0, options: options, contextLength: 512) }
        #expect(expected.allSatisfy { !$0.isEmpty })
        let generator = BatchedGenerator(model: model, capacity: 1, contextLength: 512)
        for (i, ids) in inputs.enumerated() {
            let (out, summary) = try await BatchedGenerationTests.collect(generator.events(ids: ids, options: options, owner: UInt64(i + 1)))
            #expect(out == expected[i], "request \(i)")
            // The longest prefix any earlier prompt shares with this one: the system prompt and the template around it.
            let shared = inputs[..<i].map { Self.commonPrefix($0, ids) }.max() ?? 0
            #expect(summary?.reusedPromptTokens == (shared >= 8 ? shared : 0), "request \(i)")
            #expect(i == 0 || shared > 64)
        }
        // Two at once on a fresh engine: the second admitted copies what the first computed.
        let pair = BatchedGenerator(model: model, capacity: 2, contextLength: 512)
        async let a = BatchedGenerationTests.collect(pair.events(ids: inputs[2], options: options, owner: 1))
        async let b = BatchedGenerationTests.collect(pair.events(ids: inputs[3], options: options, owner: 2))
        let (first, second) = try await (a, b)
        #expect(first.ids == expected[2] && second.ids == expected[3])
        let reused = [first.summary?.reusedPromptTokens ?? -1, second.summary?.reusedPromptTokens ?? -1].sorted()
        #expect(reused == [0, Self.commonPrefix(inputs[2], inputs[3])])
    }
}
