import Testing
@testable import SwitchboardInference

/// The KV budget's decisions, without threads.
@Suite struct KVBudgetTests {
    @Test func admitsWaitsAndRejects() {
        var budget = KVBudget(limit: 100, slots: 3)
        #expect(budget.decide(60, slot: 0) == .admit)
        budget.set(0, 60)
        #expect(budget.decide(40, slot: 1) == .admit)
        #expect(budget.decide(41, slot: 1) == .wait)
        // A slot's own holding (its kept cache) is replaced, not added to.
        #expect(budget.decide(100, slot: 0) == .admit)
        #expect(budget.decide(101, slot: 2) == .reject)
        budget.set(0, 0)
        #expect(budget.decide(100, slot: 1) == .admit && budget.total == 0)
    }

    @Test func theCacheCountsAndYieldsOnlyWhenThatHelps() {
        var budget = KVBudget(limit: 100, slots: 2)
        budget.set(0, 50)
        budget.setCached(30)
        #expect(budget.total == 80 && budget.roomForCache == 50)
        #expect(budget.decide(20, slot: 1) == .admit && budget.decide(30, slot: 1) == .wait)
        // Dropping the cache makes room for 50, not for 60 (slot 0 runs): then it is kept.
        #expect(budget.fitsWithoutCache(50, slot: 1) && !budget.fitsWithoutCache(60, slot: 1))
        budget.set(1, 70)
        #expect(budget.roomForCache == 0)
    }

    @Test func positionsAreCappedAndSaturate() {
        #expect(KVBudget.positions(prompt: 10, maxTokens: 20, contextLength: 512) == 30)
        #expect(KVBudget.positions(prompt: 500, maxTokens: 20, contextLength: 512) == 512)
        #expect(KVBudget.positions(prompt: 10, maxTokens: .max, contextLength: 512) == 512)
        #expect(KVBudget.positions(prompt: 10, maxTokens: -5, contextLength: 512) == 10)
        var budget = KVBudget(limit: .max, slots: 2)
        budget.set(0, .max)
        #expect(budget.decide(.max, slot: 1) == .wait)
    }
}

/// The budget in a running engine (a tiny synthetic model, so it runs everywhere): requests that do
/// not fit wait and then produce what they produce alone; one larger than the budget is a typed error;
/// released cache memory reads as zero and the kept part is untouched.
@Suite struct BatchedKVBudgetTests {
    static let prompts: [[Int32]] = [[72, 101, 108, 108, 111], [256, 33, 10, 7, 72], [108, 111, 256, 33]]

    @Test func requestsBeyondTheBudgetWaitAndLoseNothing() async throws {
        let model = try SyntheticLlamaModel(arch: "llama").load()
        let maxTokens = 24
        let expected = try Self.prompts.map { try BatchedGenerationTests.alone(model, $0, options: GenerationOptions(maxTokens: maxTokens)) }
        // Room for one request's cache at a time, with three slots.
        let one = BatchedSession(model: model, capacity: 1).kvBytes(positions: 5 + maxTokens)
        let batched = BatchedGenerator(model: model, capacity: 3, kvBudgetBytes: one + one / 2)
        let results = try await withThrowingTaskGroup(of: (Int, [Int32]).self) { group in
            for (i, ids) in Self.prompts.enumerated() {
                group.addTask { (i, try await BatchedGenerationTests.collect(batched.events(ids: ids,
                                                                                            options: GenerationOptions(maxTokens: maxTokens))).ids) }
            }
            var results = [[Int32]](repeating: [], count: Self.prompts.count)
            for try await (i, ids) in group { results[i] = ids }
            return results
        }
        #expect(results == expected)
        #expect(results.allSatisfy { $0.count == maxTokens })
    }

    @Test func aRequestLargerThanTheBudgetIsATypedError() async throws {
        // 256 positions, so a long request needs more whole pages of fp16 keys than a short one.
        var synthetic = SyntheticLlamaModel(arch: "llama")
        synthetic.contextLength = 256
        let model = try synthetic.load()
        let session = BatchedSession(model: model, capacity: 1)
        let budget = session.kvBytes(positions: 16)
        let batched = BatchedGenerator(model: model, capacity: 2, kvBudgetBytes: budget)
        let needed = session.kvBytes(positions: 5 + 200)
        #expect(needed > budget)
        await #expect(throws: InferenceError.kvBudgetExceeded(neededBytes: needed, budgetBytes: budget)) {
            _ = try await BatchedGenerationTests.collect(batched.events(ids: Self.prompts[0], options: GenerationOptions(maxTokens: 200)))
        }
        // The engine goes on serving requests that fit.
        let small = try await BatchedGenerationTests.collect(batched.events(ids: Self.prompts[0], options: GenerationOptions(maxTokens: 4)))
        #expect(small.ids.count == 4)
        #expect(InferenceError.kvBudgetExceeded(neededBytes: needed, budgetBytes: budget).description.contains("KV budget"))
    }

    @Test func releasedPositionsReadZeroAndKeptOnesStay() throws {
        let model = try SyntheticLlamaModel(arch: "llama").load()
        let cache = KVCache(architecture: model.architecture, contextLength: 4096, batch: 1)
        let width = cache.width
        let key = [Float](repeating: 1.5, count: width), value = [Float](repeating: -2, count: width)
        for p in 0..<4096 { cache.store(layer: 0, position: p, key: key, value: value) }
        let kept = 1024
        cache.release(from: kept)
        let layer = cache.layers[0]
        let one = Float16(1.5).bitPattern, minusTwo = Float16(-2).bitPattern
        #expect((0..<(kept * width)).allSatisfy { layer.keys[$0] == one })
        #expect((0..<width).allSatisfy { d in (0..<kept).allSatisfy { layer.values[d * layer.slots + $0] == minusTwo } })
        // Whole pages past the kept positions went back: they read as zero.
        #expect(layer.keys[(kept + 1024) * width] == 0 && layer.keys[4095 * width] == 0)
        #expect(layer.values[layer.slots - 1] == 0 || !layer.isMapped)
        #expect(cache.residentBytes(positions: 4096) > cache.residentBytes(positions: kept))

        // Bounded by what was written: the page holding the last written position goes too (it
        // holds nothing older than the kept part), earlier pages stay.
        for p in kept..<(kept + 100) { cache.store(layer: 0, position: p, key: key, value: value) }
        cache.release(from: kept, upTo: kept + 100)
        #expect(layer.keys[kept * width] == 0 && layer.keys[(kept + 99) * width] == 0)
        #expect(layer.keys[(kept - 1) * width] == one && layer.values[kept - 1] == minusTwo)
    }
}
