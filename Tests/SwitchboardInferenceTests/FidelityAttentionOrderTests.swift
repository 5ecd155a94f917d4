import Foundation
import Testing
@testable import SwitchboardInference

/// The summation orders the attention mirrors from llama.cpp's CPU backend (checked against its
/// intermediate tensors: KQ of a one-token pass matches `ggml_vec_dot_f16`'s order bit for bit,
/// the single-accumulator tinyBLAS order does not).
@Suite struct FidelityAttentionOrderTests {
    /// fp16-representable pseudo-random values (products of two are exact in f32, like llama.cpp's).
    static func halves(_ count: Int, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in Float(Float16(Float.random(in: -2...2, using: &random))) }
    }

    /// The same values as fp16 cache cells (`KVCache.Cell`).
    static func cells(_ values: [Float]) -> [KVCache.Cell] { values.map { Float16($0).bitPattern } }

    /// Scalar model of ggml_vec_dot_f16 on AVX-512: accumulator j of 16 lanes takes blocks
    /// j, j+4, j+8…; then (a0+a2)+(a1+a3); then GCC's reduce (256-bit halves, 128-bit halves, pairs).
    static func referenceVecDotF16(_ x: [Float], _ y: [Float]) -> Float {
        var acc = [[Float]](repeating: [Float](repeating: 0, count: 16), count: 4)
        for block in 0..<(x.count / 16) {
            for lane in 0..<16 {
                let i = block * 16 + lane
                acc[block % 4][lane] = (x[i] * y[i]) + acc[block % 4][lane]   // exact product, one rounding
            }
        }
        let v = (0..<16).map { (acc[0][$0] + acc[2][$0]) + (acc[1][$0] + acc[3][$0]) }
        let h8 = (0..<8).map { v[$0 + 8] + v[$0] }
        let h4 = (0..<4).map { h8[$0 + 4] + h8[$0] }
        return (h4[0] + h4[2]) + (h4[1] + h4[3])
    }

    /// A synthetic cache layer of `slots` positions × `width` values (keys scaled down so softmax is
    /// not one-hot), passed to `body` and freed after.
    static func withLayer(slots: Int, width: Int, ring: Bool, seeds: (UInt64, UInt64), _ body: (KVCache.Layer) -> Void) {
        let keys = UnsafeMutablePointer<KVCache.Cell>.allocate(capacity: slots * width)
        let values = UnsafeMutablePointer<KVCache.Cell>.allocate(capacity: slots * width)
        defer { keys.deallocate(); values.deallocate() }
        let k = halves(slots * width, seed: seeds.0), v = halves(slots * width, seed: seeds.1)
        for i in 0..<(slots * width) { keys[i] = Float16(k[i] * 0.05).bitPattern; values[i] = Float16(v[i]).bitPattern }
        body(KVCache.Layer(keys: keys, values: values, slots: slots, isRing: ring))
    }

    @Test func singleTokenDotFollowsVecDotF16Order() {
        var differsFromOneAccumulator = 0
        for seed in 1...200 as ClosedRange<UInt64> {
            let x = Self.halves(256, seed: seed), y = Self.halves(256, seed: seed &* 7919)
            let mine = Attention.dot4(AVX512Lanes.self, x, Self.cells(y), count: 256)
            #expect(mine.bitPattern == Self.referenceVecDotF16(x, y).bitPattern)
            if mine.bitPattern != Attention.dot(AVX512Lanes.self, x, Self.cells(y), count: 256).bitPattern { differsFromOneAccumulator += 1 }
        }
        // The two orders really differ (otherwise this test would prove nothing).
        #expect(differsFromOneAccumulator > 0)
    }

    /// The one-token path computes the same attention as the batched path up to summation order,
    /// including the sliding window over a ring cache.
    @Test(arguments: [(0, 40), (0, 700), (512, 700)])
    func singleTokenHeadAgreesWithBatchedHead(window: Int, position: Int) {
        let head = 256, slots = 1024
        Self.withLayer(slots: slots, width: head, ring: window > 0, seeds: (3, 4)) { layer in
            let query = Self.halves(head, seed: 5)
            var scores = [Float](repeating: 0, count: slots + 64), batched = [Float](repeating: 0, count: head), single = batched
            Attention.head(query: query, layer: layer, width: head, kvHead: 0, headLength: head, position: position,
                           window: window, singleToken: false, scores: &scores, output: &batched)
            Attention.head(query: query, layer: layer, width: head, kvHead: 0, headLength: head, position: position,
                           window: window, singleToken: true, scores: &scores, output: &single)
            let worst = zip(batched, single).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst < 2e-3)
            #expect(batched.contains { $0 != 0 })
        }
    }

    /// Two heads of one KV head in one pass (decode) give each head's bits alone, in both builds'
    /// lane orders, with a sliding window over a ring cache and at chunk boundaries.
    @Test(arguments: [(0, 40, 64), (0, 700, 256), (512, 700, 64), (0, 15, 128), (0, 64, 64)])
    func singleTokenPairEqualsEachHeadAlone(window: Int, position: Int, head: Int) {
        let slots = 1024, width = 2 * head
        Self.withLayer(slots: slots, width: width, ring: window > 0, seeds: (13, 14)) { layer in
            let q0 = Self.halves(head, seed: 15), q1 = Self.halves(head, seed: 16)
            for build in ReferenceBuild.allCases {
                var alone0 = [Float](repeating: 0, count: head), alone1 = alone0
                var scores = [Float](repeating: 0, count: slots + 64)
                Attention.head(query: q0, layer: layer, width: width, kvHead: 1, headLength: head, position: position,
                               window: window, singleToken: true, build: build, scores: &scores, output: &alone0)
                Attention.head(query: q1, layer: layer, width: width, kvHead: 1, headLength: head, position: position,
                               window: window, singleToken: true, build: build, scores: &scores, output: &alone1)
                let buffers = UnsafeMutablePointer<Float>.allocate(capacity: 2 * (slots + 64) + 2 * head)
                defer { buffers.deallocate() }
                buffers.initialize(repeating: 0, count: 2 * (slots + 64) + 2 * head)
                let outputs = (buffers + 2 * (slots + 64), buffers + 2 * (slots + 64) + head)
                q0.withUnsafeBufferPointer { a in
                    q1.withUnsafeBufferPointer { b in
                        Attention.headPair(queries: (a.baseAddress!, b.baseAddress!), layer: layer, width: width, kvHead: 1, headLength: head,
                                           position: position, window: window, singleToken: true, build: build,
                                           scores: (buffers, buffers + slots + 64), outputs: outputs)
                    }
                }
                #expect(Array(UnsafeBufferPointer(start: outputs.0, count: head)).map(\.bitPattern) == alone0.map(\.bitPattern), "\(build) head 0")
                #expect(Array(UnsafeBufferPointer(start: outputs.1, count: head)).map(\.bitPattern) == alone1.map(\.bitPattern), "\(build) head 1")
                #expect(alone0 != alone1 && alone0.contains { $0 != 0 })
            }
        }
    }
}
