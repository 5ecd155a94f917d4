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

    /// A value job (the per-token regions' path, which allocates nothing) sees every chunk once.
    struct CountingJob: ParallelJob {
        let counts: UnsafeMutablePointer<Int>
        func run(chunk: Int, worker: Int) { counts[chunk] += 1 }
    }

    @Test(arguments: [1, 2, 3])
    func poolRunsEveryChunkOfAValueJobOnce(threads: Int) {
        let pool = WorkerPool(threads: threads)
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0, count: 64)
        for _ in 0..<10 { pool.run(chunks: 64, CountingJob(counts: counts)) }
        #expect((0..<64).allSatisfy { counts[$0] == 10 })
    }

    /// `MatMulJob` maps its chunks onto up to three products of different heights: every output row
    /// of each is computed once (F32 weights: the plain float path).
    @Test func matMulJobCoversEveryRowOfEveryProduct() {
        let columns = 8, heights = [5, 40, 300]
        let weights = heights.map { rows in (0..<rows * columns).map { Float(($0 * 7) % 13) - 6 } }
        let input: [Float] = (0..<columns).map { Float($0) - 3.5 }
        let outputs = heights.map { UnsafeMutablePointer<Float>.allocate(capacity: $0) }
        defer { outputs.forEach { $0.deallocate() } }
        for (o, rows) in zip(outputs, heights) { o.initialize(repeating: .nan, count: rows) }
        weights[0].withUnsafeBytes { w0 in weights[1].withUnsafeBytes { w1 in weights[2].withUnsafeBytes { w2 in
            input.withUnsafeBufferPointer { x in
                let products = zip([w0, w1, w2], zip(heights, outputs)).map { w, ho in
                    ForwardContext.Product(WeightMatrix(base: w.baseAddress!, rows: ho.0, columns: columns, format: .f32), ho.1)
                }
                let pool = WorkerPool(threads: 2)
                let job = MatMulJob(products: (products[0], products[1], products[2]), threads: 2, input: x.baseAddress!, quantized: nil, kind: nil,
                                    count: 1, batch: nil)
                pool.run(chunks: job.totalChunks, job)
            }
        } } }
        for (p, rows) in heights.enumerated() {
            for r in 0..<rows {
                let expected = (0..<columns).reduce(Float(0)) { $0 + weights[p][r * columns + $1] * input[$1] }
                #expect(outputs[p][r] == expected, "product \(p) row \(r)")
            }
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

    /// The cache keeps fp16 cells; both lane widths read back exactly what llama.cpp's f16 cache holds
    /// (Float(Float16(x))), subnormals, signed zero and infinities included.
    @Test func cacheStoresFP16CellsThatBothLaneWidthsReadBackExactly() {
        let cache = KVCache(architecture: ModelArchitectureFixture.tiny, contextLength: 64, batch: 1)
        var random = SplitMix64(seed: 11)
        var key = (0..<16).map { _ in Float.random(in: -70_000...70_000, using: &random) }
        key[0] = 1e-7; key[1] = -0.0; key[2] = .infinity; key[3] = 65_520; key[4] = 3.0e-5
        let value = key.map { $0 / 1024 }
        cache.store(layer: 5, position: 3, key: key, value: value)
        let layer = cache.layers[5]
        let rawKey = UnsafeRawPointer(layer.keys + 3 * cache.width)
        let wide = AVX512Lanes.loadHalves(rawKey, 0)
        let narrow = (AVX2Lanes.loadHalves(rawKey, 0), AVX2Lanes.loadHalves(rawKey, 16))
        for i in 0..<16 {
            let expected = Float(Float16(key[i])).bitPattern
            #expect(wide[i].bitPattern == expected, "key \(i)")
            #expect((i < 8 ? narrow.0[i] : narrow.1[i - 8]).bitPattern == expected, "key \(i)")
            #expect(Float(Float16(bitPattern: layer.values[i * layer.slots + 3])).bitPattern == Float(Float16(value[i])).bitPattern)
        }
        // Two bytes per cell: a full cache is every layer's slots × width cells, twice, in whole pages.
        let full = KVCache(architecture: ModelArchitectureFixture.tiny, contextLength: 4096, batch: 1)
        let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
        let expected = full.layers.reduce(0) { $0 + 2 * (($1.slots * full.width * 2 + page - 1) / page * page) }
        #expect(full.residentBytes(positions: 4096) == expected)
    }

    /// Walking slots by addition lands where the position's own slot is, across a ring's wrap.
    @Test func slotsAdvancedByAdditionMatchTheirPositions() {
        var a = ModelArchitectureFixture.tiny
        a.slidingWindow = 20
        let cache = KVCache(architecture: a, contextLength: 256, batch: 1)
        for layer in [cache.layers[0], cache.layers[5]] {
            for step in [1, 8, 16] {
                var slot = layer.slot(3)
                for p in stride(from: 3, to: 200, by: step) {
                    #expect(slot == layer.slot(p), "ring \(layer.isRing) step \(step) position \(p)")
                    slot = layer.slot(slot, advancedBy: step)
                }
            }
        }
        #expect(cache.layers[0].isRing && !cache.layers[5].isRing)
    }

    @Test func attentionAveragesValuesBySoftmaxAndRespectsWindow() throws {
        var a = ModelArchitectureFixture.tiny
        a.slidingWindow = 2
        let cache = KVCache(architecture: a, contextLength: 64, batch: 1)
        let layer = cache.layers[0]
        #expect(layer.isRing && layer.slots == 32)
        // Keys all zero → uniform weights; values are the position numbers.
        for p in 0..<5 {
            let key = [Float](repeating: 0, count: 16), value = [Float](repeating: Float(p), count: 16)
            cache.store(layer: 0, position: p, key: key, value: value)
        }
        var out = [Float](repeating: 0, count: 16), scores = [Float](repeating: 0, count: 96)
        let q = [Float](repeating: 1, count: 16)
        Attention.head(query: q, layer: layer, width: 16, kvHead: 0, headLength: 16, position: 4, window: 2, scores: &scores, output: &out)
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
                          keyLength: 16, valueLength: 16, rmsEpsilon: 1e-6, ropeBase: 1e6, ropeBaseLocal: 1e4, slidingWindow: 512,
                          slidingWindowPattern: 6, contextLength: 64, vocabularySize: 10)
    }
}
