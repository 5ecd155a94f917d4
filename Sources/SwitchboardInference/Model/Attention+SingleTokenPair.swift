/// Two query heads of one KV head at once in a one-token pass (decode, `singleTokenHead`'s order;
/// reached through `headPair`).
/// Each key and value vector is loaded and widened from fp16 once for both heads; every accumulator
/// and the order of its additions are `singleTokenHead`'s, so each head's output is bit-identical to
/// running it alone. Values go one dimension at a time here (two heads × four accumulators) where
/// `singleTokenHead` takes two dimensions of one head: the same eight registers.
extension Attention {
    @inline(__always)
    static func singleTokenPair<L: AttentionLanes>(_ lanes: L.Type, _ q: (UnsafePointer<Float>, UnsafePointer<Float>), _ layer: KVCache.Layer,
                                                   _ width: Int, _ kvHead: Int, _ headLength: Int, _ position: Int, _ window: Int,
                                                   _ scores: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                                                   _ output: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        let first = window > 0 ? max(0, position - window + 1) : 0
        let base = first & ~15
        let end = (position + 16) & ~15
        var max0 = -Float.infinity, max1 = -Float.infinity
        var p = first
        var slot = layer.slot(p), ahead = layer.slot(p + 8)
        while p <= position {
            if p + 8 <= position { Prefetch.read(layer.keys + ahead * width + kvHead * headLength, count: 2 * headLength) }
            let (a, b) = dot4Pair(L.self, q, layer.keys + slot * width + kvHead * headLength, count: headLength)
            scores.0[p - base] = a; max0 = max(max0, a)
            scores.1[p - base] = b; max1 = max(max1, b)
            p += 1; slot = layer.slot(slot, advancedBy: 1); ahead = layer.slot(ahead, advancedBy: 1)
        }
        softmax(L.self, scores.0, first: first, base: base, position: position, end: end, maxScore: max0)
        softmax(L.self, scores.1, first: first, base: base, position: position, end: end, maxScore: max1)
        let probs = (UnsafeRawPointer(scores.0), UnsafeRawPointer(scores.1))
        let values = layer.values + kvHead * headLength * layer.slots
        let step = L.width, shift = step == 16 ? 4 : 3
        for d in 0..<headLength {
            let r = UnsafeRawPointer(values + d * layer.slots)
            var x0 = L.Vector(), x1 = L.Vector(), x2 = L.Vector(), x3 = L.Vector()
            var y0 = L.Vector(), y1 = L.Vector(), y2 = L.Vector(), y3 = L.Vector()
            var slot = layer.slot(base)
            @inline(__always) func add(_ chunk: Int) {
                let offset = 4 * (chunk - base)
                let v = L.loadHalves(r, 2 * slot)
                slot = layer.slot(slot, advancedBy: step)
                switch (chunk >> shift) & 3 {
                case 0: x0.addProduct(v, L.load(probs.0, offset)); y0.addProduct(v, L.load(probs.1, offset))
                case 1: x1.addProduct(v, L.load(probs.0, offset)); y1.addProduct(v, L.load(probs.1, offset))
                case 2: x2.addProduct(v, L.load(probs.0, offset)); y2.addProduct(v, L.load(probs.1, offset))
                default: x3.addProduct(v, L.load(probs.0, offset)); y3.addProduct(v, L.load(probs.1, offset))
                }
            }
            var chunk = base
            while chunk < end && (chunk >> shift) & 3 != 0 { add(chunk); chunk += step }
            while chunk + 4 * step <= end {
                let o = 4 * (chunk - base), o1 = o + 4 * step, o2 = o + 8 * step, o3 = o + 12 * step
                let s1 = layer.slot(slot, advancedBy: step), s2 = layer.slot(s1, advancedBy: step), s3 = layer.slot(s2, advancedBy: step)
                let v0 = L.loadHalves(r, 2 * slot), v1 = L.loadHalves(r, 2 * s1), v2 = L.loadHalves(r, 2 * s2), v3 = L.loadHalves(r, 2 * s3)
                slot = layer.slot(s3, advancedBy: step)
                x0.addProduct(v0, L.load(probs.0, o)); y0.addProduct(v0, L.load(probs.1, o))
                x1.addProduct(v1, L.load(probs.0, o1)); y1.addProduct(v1, L.load(probs.1, o1))
                x2.addProduct(v2, L.load(probs.0, o2)); y2.addProduct(v2, L.load(probs.1, o2))
                x3.addProduct(v3, L.load(probs.0, o3)); y3.addProduct(v3, L.load(probs.1, o3))
                chunk += 4 * step
            }
            while chunk < end { add(chunk); chunk += step }
            output.0[d] = L.reduce(x0, x1, x2, x3)
            output.1[d] = L.reduce(y0, y1, y2, y3)
        }
    }

    /// `dot4` (`ggml_vec_dot_f16`) of two queries with the same key.
    @inline(__always)
    static func dot4Pair<L: AttentionLanes>(_ lanes: L.Type, _ q: (UnsafePointer<Float>, UnsafePointer<Float>), _ k: UnsafePointer<KVCache.Cell>,
                                            count: Int) -> (Float, Float) {
        var a0 = L.Vector(), a1 = L.Vector(), a2 = L.Vector(), a3 = L.Vector()
        var b0 = L.Vector(), b1 = L.Vector(), b2 = L.Vector(), b3 = L.Vector()
        let ra = (UnsafeRawPointer(q.0), UnsafeRawPointer(q.1)), rb = UnsafeRawPointer(k)
        let bytes = 4 * L.width, halfBytes = 2 * L.width
        var i = 0
        while i < count {
            let k0 = L.loadHalves(rb, 2 * i), k1 = L.loadHalves(rb, 2 * i + halfBytes)
            let k2 = L.loadHalves(rb, 2 * i + 2 * halfBytes), k3 = L.loadHalves(rb, 2 * i + 3 * halfBytes)
            a0.addProduct(L.load(ra.0, 4 * i), k0); b0.addProduct(L.load(ra.1, 4 * i), k0)
            a1.addProduct(L.load(ra.0, 4 * i + bytes), k1); b1.addProduct(L.load(ra.1, 4 * i + bytes), k1)
            a2.addProduct(L.load(ra.0, 4 * i + 2 * bytes), k2); b2.addProduct(L.load(ra.1, 4 * i + 2 * bytes), k2)
            a3.addProduct(L.load(ra.0, 4 * i + 3 * bytes), k3); b3.addProduct(L.load(ra.1, 4 * i + 3 * bytes), k3)
            i += 4 * L.width
        }
        return (L.reduce(a0, a1, a2, a3), L.reduce(b0, b1, b2, b3))
    }
}
