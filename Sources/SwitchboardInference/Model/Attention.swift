import Foundation

/// Scaled dot-product attention of one query head over the cached keys/values (causal, with an
/// optional sliding window), grouped-query: several query heads share one KV head.
enum Attention {
    /// - Parameters:
    ///   - query: one head's query, already normed, rotated and scaled.
    ///   - kvHead: which KV head of each cached position to read.
    ///   - window: 0 for full causal attention, else only the last `window` positions are visible.
    ///   - scores: scratch of at least `position + 1` floats.
    static func head(query: UnsafePointer<Float>, layer: KVCache.Layer, width: Int, kvHead: Int, headLength: Int,
                     position: Int, window: Int, scores: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let first = window > 0 ? max(0, position - window + 1) : 0
        let count = position - first + 1
        var maxScore = -Float.infinity
        for j in 0..<count {
            let key = layer.keys + layer.slot(first + j) * width + kvHead * headLength
            let s = VectorMath.dot(query, key, count: headLength)
            scores[j] = s
            maxScore = max(maxScore, s)
        }
        var sum: Float = 0
        for j in 0..<count {
            let e = expf(scores[j] - maxScore)
            scores[j] = e
            sum += e
        }
        let inv = 1 / sum
        output.update(repeating: 0, count: headLength)
        for j in 0..<count {
            let value = layer.values + layer.slot(first + j) * width + kvHead * headLength
            // llama.cpp's KQ·V matmul sees the probabilities converted to fp16.
            VectorMath.axpy(Float(Float16(scores[j] * inv)), value, output, count: headLength)
        }
    }
}
