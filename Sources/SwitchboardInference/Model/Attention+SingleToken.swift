import Foundation

/// One-token forward passes (decode), in llama.cpp's order for that case.
///
/// With one query row `llamafile_sgemm` declines (`n < 2`), so KQ and KQV fall back to
/// `ggml_vec_dot_f16`: it keeps four accumulators (16 lanes on AVX-512, 8 on AVX2), element block
/// `i` going to accumulator `i % 4`, then reduces them (`AttentionLanes.reduce(_:_:_:_:)`). The KQV
/// dot runs over the padded KV cells (a multiple of 256) in cell order, so a position's
/// accumulator is fixed by its absolute index; masked cells add exact zeros.
extension Attention {
    @inline(__always)
    static func singleTokenHead<L: AttentionLanes>(_ lanes: L.Type, _ query: UnsafePointer<Float>, _ layer: KVCache.Layer, _ width: Int,
                                                   _ kvHead: Int, _ headLength: Int, _ position: Int, _ window: Int,
                                                   _ scores: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<Float>) {
        let first = window > 0 ? max(0, position - window + 1) : 0
        let base = first & ~15
        let end = (position + 16) & ~15
        var maxScore = -Float.infinity
        var p = first
        var slot = layer.slot(p), ahead = layer.slot(p + 8)
        while p <= position {
            // Keys of one head are a short run every `width` cells, which the hardware prefetchers do
            // not follow: ask for the run a few positions ahead.
            if p + 8 <= position { Prefetch.read(layer.keys + ahead * width + kvHead * headLength, count: 2 * headLength) }
            let s = dot4(L.self, query, layer.keys + slot * width + kvHead * headLength, count: headLength)
            scores[p - base] = s
            maxScore = max(maxScore, s)
            p += 1; slot = layer.slot(slot, advancedBy: 1); ahead = layer.slot(ahead, advancedBy: 1)
        }
        softmax(L.self, scores, first: first, base: base, position: position, end: end, maxScore: maxScore)
        let probs = UnsafeRawPointer(scores)
        let values = layer.values + kvHead * headLength * layer.slots
        let step = L.width, shift = step == 16 ? 4 : 3
        var d = 0
        while d + 2 <= headLength {
            let r0 = UnsafeRawPointer(values + d * layer.slots), r1 = UnsafeRawPointer(values + (d + 1) * layer.slots)
            var x0 = L.Vector(), x1 = L.Vector(), x2 = L.Vector(), x3 = L.Vector()
            var y0 = L.Vector(), y1 = L.Vector(), y2 = L.Vector(), y3 = L.Vector()
            var slot = layer.slot(base)
            @inline(__always) func add(_ chunk: Int) {
                let pr = L.load(probs, 4 * (chunk - base))
                let offset = 2 * slot
                slot = layer.slot(slot, advancedBy: step)
                let v0 = L.loadHalves(r0, offset), v1 = L.loadHalves(r1, offset)
                switch (chunk >> shift) & 3 {
                case 0: x0.addProduct(v0, pr); y0.addProduct(v1, pr)
                case 1: x1.addProduct(v0, pr); y1.addProduct(v1, pr)
                case 2: x2.addProduct(v0, pr); y2.addProduct(v1, pr)
                default: x3.addProduct(v0, pr); y3.addProduct(v1, pr)
                }
            }
            // Whole groups of four chunks (one per accumulator) without the switch, whose jump
            // table cost a quarter of decode attention; the same additions in the same order.
            var chunk = base
            while chunk < end && (chunk >> shift) & 3 != 0 { add(chunk); chunk += step }
            while chunk + 4 * step <= end {
                let p0 = L.load(probs, 4 * (chunk - base)), p1 = L.load(probs, 4 * (chunk + step - base))
                let p2 = L.load(probs, 4 * (chunk + 2 * step - base)), p3 = L.load(probs, 4 * (chunk + 3 * step - base))
                let s1 = layer.slot(slot, advancedBy: step), s2 = layer.slot(s1, advancedBy: step), s3 = layer.slot(s2, advancedBy: step)
                let o0 = 2 * slot, o1 = 2 * s1, o2 = 2 * s2, o3 = 2 * s3
                slot = layer.slot(s3, advancedBy: step)
                x0.addProduct(L.loadHalves(r0, o0), p0); y0.addProduct(L.loadHalves(r1, o0), p0)
                x1.addProduct(L.loadHalves(r0, o1), p1); y1.addProduct(L.loadHalves(r1, o1), p1)
                x2.addProduct(L.loadHalves(r0, o2), p2); y2.addProduct(L.loadHalves(r1, o2), p2)
                x3.addProduct(L.loadHalves(r0, o3), p3); y3.addProduct(L.loadHalves(r1, o3), p3)
                chunk += 4 * step
            }
            while chunk < end { add(chunk); chunk += step }
            output[d] = L.reduce(x0, x1, x2, x3)
            output[d + 1] = L.reduce(y0, y1, y2, y3)
            d += 2
        }
    }

    /// `ggml_vec_dot_f16` for a length that is a multiple of four vectors.
    @inline(__always)
    static func dot4<L: AttentionLanes>(_ lanes: L.Type, _ a: UnsafePointer<Float>, _ b: UnsafePointer<KVCache.Cell>, count: Int) -> Float {
        var s0 = L.Vector(), s1 = L.Vector(), s2 = L.Vector(), s3 = L.Vector()
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        let bytes = 4 * L.width, halfBytes = 2 * L.width
        var i = 0
        while i < count {
            s0.addProduct(L.load(ra, 4 * i), L.loadHalves(rb, 2 * i))
            s1.addProduct(L.load(ra, 4 * i + bytes), L.loadHalves(rb, 2 * i + halfBytes))
            s2.addProduct(L.load(ra, 4 * i + 2 * bytes), L.loadHalves(rb, 2 * i + 2 * halfBytes))
            s3.addProduct(L.load(ra, 4 * i + 3 * bytes), L.loadHalves(rb, 2 * i + 3 * halfBytes))
            i += 4 * L.width
        }
        return L.reduce(s0, s1, s2, s3)
    }
}
