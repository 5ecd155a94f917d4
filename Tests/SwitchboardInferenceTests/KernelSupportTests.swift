import Foundation
import Testing
@testable import SwitchboardInference

/// Worker pool, RoPE, attention, KV cache and logit helpers, without the model.
@Suite struct KernelSupportTests {
    @Test(arguments: [1, 2, 3])
    func poolRunsEveryChunkExactlyOnce(threads: Int) {
        let pool = WorkerPool(threads: threads)
        for chunks in [1, 2, 7, 100] {
            let counts = UnsafeMutablePointer<Int>.allocate(capacity: chunks)
            let workers = UnsafeMutablePointer<Int>.allocate(capacity: chunks)
            counts.initialize(repeating: 0, count: chunks)
            workers.initialize(repeating: 0, count: chunks)
            for _ in 0..<20 { pool.run(chunks: chunks) { c, worker in counts[c] += 1; workers[c] = max(workers[c], worker) } }
            #expect((0..<chunks).allSatisfy { counts[$0] == 20 })
            #expect((0..<chunks).allSatisfy { workers[$0] < threads })
            counts.deallocate()
            workers.deallocate()
        }
    }

    @Test func rangesCoverEverything() {
        let parts = (0..<3).map { WorkerPool.range($0, of: 100, parts: 3, granularity: 16) }
        #expect(parts.first?.lowerBound == 0 && parts.last?.upperBound == 100)
        #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }

    @Test func ropeTableMatchesComputedPositionsAndKeepsNorm() {
        let tabled = RotaryEmbedding(dimensions: 8, base: 10_000, tabulated: 64)
        let computed = RotaryEmbedding(dimensions: 8, base: 10_000, tabulated: 0)
        var a: [Float] = [1, 2, 3, 4, 5, 6, 7, 8], b = a
        a.withUnsafeMutableBufferPointer { tabled.apply($0.baseAddress!, heads: 1, position: 37, stride: 8) }
        b.withUnsafeMutableBufferPointer { computed.apply($0.baseAddress!, heads: 1, position: 37, stride: 8) }
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 })
        let norm = a.reduce(0) { $0 + $1 * $1 }
        #expect(abs(norm - 204) < 1e-3)
        // Position 0 is the identity; NEOX pairs i with i + d/2.
        var c: [Float] = [1, 0, 0, 0, 0, 0, 0, 0]
        c.withUnsafeMutableBufferPointer { tabled.apply($0.baseAddress!, heads: 1, position: 1, stride: 8) }
        let c0 = Float(cos(1.0)), s0 = Float(sin(1.0))
        #expect(abs(c[0] - c0) < 1e-6)
        #expect(abs(c[4] - s0) < 1e-6)
    }

    @Test func attentionAveragesValuesBySoftmaxAndRespectsWindow() throws {
        var a = ModelArchitectureFixture.tiny
        a.slidingWindow = 2
        let cache = KVCache(architecture: a, contextLength: 64, batch: 1)
        let layer = cache.layers[0]
        #expect(layer.isRing && layer.slots == 32)
        // Keys all zero → uniform weights; values are the position numbers.
        for p in 0..<5 {
            let key = [Float](repeating: 0, count: 4), value = [Float](repeating: Float(p), count: 4)
            cache.store(layer: 0, position: p, key: key, value: value)
        }
        var out = [Float](repeating: 0, count: 4), scores = [Float](repeating: 0, count: 96)
        let q = [Float](repeating: 1, count: 4)
        Attention.head(query: q, layer: layer, width: 4, kvHead: 0, headLength: 4, position: 4, window: 2, scores: &scores, output: &out)
        #expect(abs(out[0] - 3.5) < 1e-3)  // positions 3 and 4 only
        let global = cache.layers[5]
        #expect(!global.isRing)
    }

    @Test func logitHelpers() {
        var logits: [Float] = [0, 3, 1, 3, -2]
        logits.withUnsafeMutableBufferPointer { l in
            #expect(LogitMath.argmax(l) == 1)
            #expect(LogitMath.top(3, l).map(\.id) == [1, 3, 2])
            let lp = LogitMath.logProbability(of: 2, in: l)
            let z: Double = exp(0.0) + 2 * exp(3.0) + exp(1.0) + exp(-2.0)
            let expected: Double = 1 - log(z)
            #expect(abs(lp - expected) < 1e-5)
        }
    }

    @Test func slidingWindowPattern() {
        let a = ModelArchitectureFixture.tiny
        #expect((0..<12).filter { !a.isSlidingWindow(layer: $0) } == [5, 11])
    }

    @Test func summaryRatesAndErrorMessages() {
        let s = GenerationSummary(finishReason: .maxTokens, promptTokens: 100, completionTokens: 11, generatedIDs: Array(repeating: 1, count: 11),
                                  timeToFirstToken: .milliseconds(250), prefillDuration: .milliseconds(200), decodeDuration: .milliseconds(500))
        #expect(abs(s.prefillTokensPerSecond - 500) < 1e-9)
        #expect(abs(s.decodeTokensPerSecond - 20) < 1e-9)
        #expect(InferenceError.contextLengthExceeded(limit: 8, requested: 9).description.contains("8"))
        #expect(InferenceError.unsupportedArchitecture("llama").description.contains("llama"))
    }
}

enum ModelArchitectureFixture {
    static var tiny: ModelArchitecture {
        ModelArchitecture(name: "gemma3", embeddingLength: 64, blockCount: 12, feedForwardLength: 128, headCount: 1, headCountKV: 1,
                          keyLength: 4, valueLength: 4, rmsEpsilon: 1e-6, ropeBase: 1e6, ropeBaseLocal: 1e4, slidingWindow: 512,
                          slidingWindowPattern: 6, contextLength: 64, vocabularySize: 10)
    }
}
