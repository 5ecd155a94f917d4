/// Two query heads of one KV head at once. Grouped-query models read the same keys and values for
/// every head of a group; here each key and value vector is loaded and widened from fp16 once for
/// both heads. Every accumulator and its order are those of the one-head path the pass takes
/// (`tiled` for prompt batches, `singleTokenHead` for one token: `Attention+SingleTokenPair.swift`),
/// so each head's output is bit-identical to running it alone.
extension Attention {
    static func headPair(queries: (UnsafePointer<Float>, UnsafePointer<Float>), layer: KVCache.Layer, width: Int, kvHead: Int,
                         headLength: Int, position: Int, window: Int, singleToken: Bool = false, build: ReferenceBuild,
                         scores: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                         outputs: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        switch (build, usesSingleTokenOrder(singleToken: singleToken, headLength: headLength)) {
        case (.avx512, false): tiledPair(AVX512Lanes.self, queries, layer, width, kvHead, headLength, position, window, scores, outputs)
        case (.avx2, false): tiledPair(AVX2Lanes.self, queries, layer, width, kvHead, headLength, position, window, scores, outputs)
        case (.avx512, true): singleTokenPair(AVX512Lanes.self, queries, layer, width, kvHead, headLength, position, window, scores, outputs)
        case (.avx2, true): singleTokenPair(AVX2Lanes.self, queries, layer, width, kvHead, headLength, position, window, scores, outputs)
        }
    }

    @inline(__always)
    static func tiledPair<L: AttentionLanes>(_ lanes: L.Type, _ q: (UnsafePointer<Float>, UnsafePointer<Float>), _ layer: KVCache.Layer,
                                             _ width: Int, _ kvHead: Int, _ headLength: Int, _ position: Int, _ window: Int,
                                             _ scores: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                                             _ output: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        let first = window > 0 ? max(0, position - window + 1) : 0
        let base = first & ~15
        let end = (position + 16) & ~15
        var max0 = -Float.infinity, max1 = -Float.infinity
        var p = first
        var slot = layer.slot(p)
        let headOffset = kvHead * headLength
        while p + 4 <= position + 1 {
            let s1 = layer.slot(slot, advancedBy: 1), s2 = layer.slot(s1, advancedBy: 1), s3 = layer.slot(s2, advancedBy: 1)
            let keys = (UnsafePointer(layer.keys + slot * width + headOffset), UnsafePointer(layer.keys + s1 * width + headOffset),
                        UnsafePointer(layer.keys + s2 * width + headOffset), UnsafePointer(layer.keys + s3 * width + headOffset))
            let (a, b) = dotx4Pair(L.self, q, keys, count: headLength)
            for i in 0..<4 {
                scores.0[p + i - base] = a[i]; max0 = max(max0, a[i])
                scores.1[p + i - base] = b[i]; max1 = max(max1, b[i])
            }
            p += 4; slot = layer.slot(s3, advancedBy: 1)
        }
        while p <= position {
            let key = layer.keys + slot * width + headOffset
            let a = dot(L.self, q.0, key, count: headLength), b = dot(L.self, q.1, key, count: headLength)
            scores.0[p - base] = a; max0 = max(max0, a)
            scores.1[p - base] = b; max1 = max(max1, b)
            p += 1; slot = layer.slot(slot, advancedBy: 1)
        }
        softmax(L.self, scores.0, first: first, base: base, position: position, end: end, maxScore: max0)
        softmax(L.self, scores.1, first: first, base: base, position: position, end: end, maxScore: max1)
        let probs = (UnsafeRawPointer(scores.0), UnsafeRawPointer(scores.1))
        let values = layer.values + kvHead * headLength * layer.slots
        let step = L.width
        var d = 0
        while d + 4 <= headLength {
            let r0 = UnsafeRawPointer(values + d * layer.slots), r1 = UnsafeRawPointer(values + (d + 1) * layer.slots)
            let r2 = UnsafeRawPointer(values + (d + 2) * layer.slots), r3 = UnsafeRawPointer(values + (d + 3) * layer.slots)
            var a0 = L.Vector(), a1 = L.Vector(), a2 = L.Vector(), a3 = L.Vector()
            var b0 = L.Vector(), b1 = L.Vector(), b2 = L.Vector(), b3 = L.Vector()
            var chunk = base, slot = layer.slot(base)
            while chunk < end {
                let pa = L.load(probs.0, 4 * (chunk - base)), pb = L.load(probs.1, 4 * (chunk - base))
                let offset = 2 * slot
                slot = layer.slot(slot, advancedBy: step)
                let v0 = L.loadHalves(r0, offset), v1 = L.loadHalves(r1, offset)
                let v2 = L.loadHalves(r2, offset), v3 = L.loadHalves(r3, offset)
                a0.addProduct(v0, pa); b0.addProduct(v0, pb)
                a1.addProduct(v1, pa); b1.addProduct(v1, pb)
                a2.addProduct(v2, pa); b2.addProduct(v2, pb)
                a3.addProduct(v3, pa); b3.addProduct(v3, pb)
                chunk += step
            }
            output.0[d] = L.reduce(a0); output.0[d + 1] = L.reduce(a1); output.0[d + 2] = L.reduce(a2); output.0[d + 3] = L.reduce(a3)
            output.1[d] = L.reduce(b0); output.1[d + 1] = L.reduce(b1); output.1[d + 2] = L.reduce(b2); output.1[d + 3] = L.reduce(b3)
            d += 4
        }
        while d < headLength {
            let row = UnsafeRawPointer(values + d * layer.slots)
            var a = L.Vector(), b = L.Vector()
            var chunk = base, slot = layer.slot(base)
            while chunk < end {
                let v = L.loadHalves(row, 2 * slot)
                a.addProduct(v, L.load(probs.0, 4 * (chunk - base)))
                b.addProduct(v, L.load(probs.1, 4 * (chunk - base)))
                chunk += step; slot = layer.slot(slot, advancedBy: step)
            }
            output.0[d] = L.reduce(a); output.1[d] = L.reduce(b)
            d += 1
        }
    }

    /// `dotx4` for two queries against the same four keys.
    @inline(__always)
    static func dotx4Pair<L: AttentionLanes>(_ lanes: L.Type, _ q: (UnsafePointer<Float>, UnsafePointer<Float>),
                                             _ k: (UnsafePointer<KVCache.Cell>, UnsafePointer<KVCache.Cell>, UnsafePointer<KVCache.Cell>,
                                                   UnsafePointer<KVCache.Cell>),
                                             count: Int) -> (SIMD4<Float>, SIMD4<Float>) {
        var a0 = L.Vector(), a1 = L.Vector(), a2 = L.Vector(), a3 = L.Vector()
        var b0 = L.Vector(), b1 = L.Vector(), b2 = L.Vector(), b3 = L.Vector()
        let rq = (UnsafeRawPointer(q.0), UnsafeRawPointer(q.1))
        let r0 = UnsafeRawPointer(k.0), r1 = UnsafeRawPointer(k.1), r2 = UnsafeRawPointer(k.2), r3 = UnsafeRawPointer(k.3)
        var i = 0
        while i < count {
            let x = L.load(rq.0, 4 * i), y = L.load(rq.1, 4 * i)
            let k0 = L.loadHalves(r0, 2 * i), k1 = L.loadHalves(r1, 2 * i)
            let k2 = L.loadHalves(r2, 2 * i), k3 = L.loadHalves(r3, 2 * i)
            a0.addProduct(x, k0); b0.addProduct(y, k0)
            a1.addProduct(x, k1); b1.addProduct(y, k1)
            a2.addProduct(x, k2); b2.addProduct(y, k2)
            a3.addProduct(x, k3); b3.addProduct(y, k3)
            i += L.width
        }
        return (SIMD4(L.reduce(a0), L.reduce(a1), L.reduce(a2), L.reduce(a3)),
                SIMD4(L.reduce(b0), L.reduce(b1), L.reduce(b2), L.reduce(b3)))
    }
}
