import Foundation
import Testing
@testable import SwitchboardInference

@Suite("Sampler")
struct SamplerTests {
    /// A large vocabulary-shaped logit vector with a few clear favourites.
    static func logits(count: Int = 20_000, seed: UInt64 = 7) -> [Float] {
        var random = SplitMix64(seed: seed)
        var values = (0..<count).map { _ in random.nextFloat() * 4 - 2 }
        for (id, logit) in [(1234, 12), (99, 11.5), (70_000 % count, 11), (5, 9)] as [(Int, Float)] { values[id] = logit }
        return values
    }

    func draw(_ config: SamplerConfiguration, _ logits: [Float], times: Int, recent: [Int32] = []) -> [Int32: Int] {
        var sampler = Sampler(configuration: config)
        var counts: [Int32: Int] = [:]
        for _ in 0..<times {
            var copy = logits
            counts[sampler.sample(&copy, recent: recent), default: 0] += 1
        }
        return counts
    }

    @Test func greedyIsArgmaxWithLowestIDOnTies() {
        var sampler = Sampler(configuration: .greedy)
        var logits = Self.logits(count: 262_144)
        #expect(sampler.sample(&logits, recent: [Int32]()) == 1234)
        var tied: [Float] = [0, 3, 1, 3, 3]
        #expect(sampler.sample(&tied, recent: [Int32]()) == 1)
        var withNaN: [Float] = [.nan, -1, .nan, 2]
        #expect(sampler.sample(&withNaN, recent: [Int32]()) == 3)
        var empty: [Float] = []
        #expect(sampler.sample(&empty, recent: [Int32]()) == 0)
    }

    @Test func seededSamplingReplays() {
        let config = SamplerConfiguration(temperature: 1.5, topK: 0, topP: 1, minP: 0, seed: 42)
        let logits = Self.logits(count: 5000)
        func run() -> [Int32] {
            var sampler = Sampler(configuration: config)
            return (0..<200).map { _ in
                var copy = logits
                return sampler.sample(&copy, recent: [Int32]())
            }
        }
        let first = run()
        #expect(first == run())
        #expect(Set(first).count > 5, "a hot temperature should spread choices")
        var other = config
        other.seed = 43
        var sampler = Sampler(configuration: other)
        let different = (0..<200).map { _ in
            var copy = logits
            return sampler.sample(&copy, recent: [Int32]())
        }
        #expect(different != first)
    }

    @Test func topKOfOneIsGreedy() {
        let counts = draw(SamplerConfiguration(temperature: 2, topK: 1, topP: 1, minP: 0, seed: 1), Self.logits(), times: 50)
        #expect(counts == [1234: 50])
    }

    @Test func topKLimitsTheChoices() {
        let counts = draw(SamplerConfiguration(temperature: 5, topK: 3, topP: 1, minP: 0, seed: 3), Self.logits(count: 262_144), times: 40)
        #expect(Set(counts.keys) == [1234, 99, 70_000])
    }

    @Test func topPExcludesTheTail() {
        // Probabilities ≈ 0.5, 0.3, 0.15 and a spread-out tail of 0.05: top-p 0.9 keeps only the first three.
        var logits = [Float](repeating: log(0.05 / 1000), count: 1003)
        logits[10] = log(0.5)
        logits[20] = log(0.3)
        logits[30] = log(0.15)
        let counts = draw(SamplerConfiguration(temperature: 1, topK: 0, topP: 0.9, minP: 0, seed: 9), logits, times: 2000)
        #expect(Set(counts.keys) == [10, 20, 30])
        // Roughly in proportion 0.5 : 0.3 : 0.15 after renormalising.
        #expect((counts[10] ?? 0) > (counts[20] ?? 0) && (counts[20] ?? 0) > (counts[30] ?? 0))
        // Without the filter the tail shows up.
        let open = draw(SamplerConfiguration(temperature: 1, topK: 0, topP: 1, minP: 0, seed: 9), logits, times: 2000)
        #expect(open.keys.contains { ![10, 20, 30].contains($0) })
    }

    @Test func minPExcludesUnlikelyTokens() {
        let logits = Self.logits()
        // min-p 0.2 at T=1: keeps tokens within ln(5) ≈ 1.6 of the best: 1234, 99 and 70000 but not 5.
        let counts = draw(SamplerConfiguration(temperature: 1, topK: 0, topP: 1, minP: 0.2, seed: 11), logits, times: 300)
        #expect(Set(counts.keys) == [1234, 99, 10_000])
        let open = draw(SamplerConfiguration(temperature: 1, topK: 0, topP: 1, minP: 0.0001, seed: 11), logits, times: 300)
        #expect(open.keys.contains(5))
    }

    @Test func topPWithoutTopKGrowsTheCandidateList() {
        // A flat distribution: top-p 0.5 needs half of 1024 tokens, far more than the first guess.
        let logits = [Float](repeating: 0, count: 1024)
        let counts = draw(SamplerConfiguration(temperature: 1, topK: 0, topP: 0.5, minP: 0, seed: 5), logits, times: 400)
        #expect(counts.keys.allSatisfy { $0 < 512 }, "ties rank by id, so only the lower half survives")
        #expect(counts.count > 150)
    }

    @Test func repetitionPenaltyChangesTheArgmax() {
        var logits: [Float] = [0, 5, 4.5, -1]
        var plain = Sampler(configuration: .greedy)
        var copy = logits
        #expect(plain.sample(&copy, recent: [1]) == 1)
        var penalized = Sampler(configuration: SamplerConfiguration(temperature: 0, repetitionPenalty: 1.5))
        #expect(penalized.sample(&logits, recent: [1, 1, 3]) == 2)
        #expect(logits == [0, 5 / 1.5, 4.5, -1.5], "positive divided once, negative multiplied, repeats counted once")
        // Outside the window: no effect.
        var windowed = Sampler(configuration: SamplerConfiguration(temperature: 0, repetitionPenalty: 1.5, repetitionWindow: 1))
        var again: [Float] = [0, 5, 4.5, -1]
        #expect(windowed.sample(&again, recent: [1, 0]) == 1)
    }

    @Test func sanitizesNonsenseConfiguration() {
        let config = SamplerConfiguration(temperature: -.infinity, topK: -3, topP: .nan, minP: 7, repetitionPenalty: 0).sanitized
        #expect(config.temperature == 0 && config.topK == 0 && config.topP == 1 && config.minP == 1 && config.repetitionPenalty == 1)
    }
}

extension SamplerTests {
    /// Logits from a broken model (NaN, ±infinity) must give a valid id, not a trap, under every
    /// sampling mode.
    @Test(arguments: [Float.nan, .infinity, -.infinity])
    func nonFiniteLogitsStillGiveAValidID(bad: Float) {
        let configurations = [
            SamplerConfiguration.greedy,
            SamplerConfiguration(temperature: 0.8, topK: 40, topP: 0.9, minP: 0.05, repetitionPenalty: 1.1, seed: 1),
            SamplerConfiguration(temperature: 1.2, topK: 0, topP: 1, minP: 0, seed: 2),
        ]
        for config in configurations {
            for pattern in 0..<3 {
                var logits = Self.logits(count: 2000)
                switch pattern {
                case 0: for i in logits.indices { logits[i] = bad }
                case 1: logits[17] = bad
                default: for i in stride(from: 0, to: logits.count, by: 3) { logits[i] = bad }
                }
                var sampler = Sampler(configuration: config)
                let id = sampler.sample(&logits, recent: [Int32(17), 5])
                #expect((0..<2000).contains(Int(id)), "\(bad) pattern \(pattern) temperature \(config.temperature)")
            }
        }
    }
}
