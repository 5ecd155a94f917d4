import Foundation

/// Teacher-forced evaluation of a whole sequence in one batched pass.
public struct SequenceScore: Sendable, Equatable {
    /// `top1[i]`: the most likely token after position i (predicts token i + 1).
    public var top1: [Int32]
    /// `logProbabilities[i]`: natural-log probability of `ids[i + 1]` after position i (count - 1 values).
    public var logProbabilities: [Double]

    /// exp(−mean log-probability) over the scored positions (1 token: 1).
    public var perplexity: Double {
        guard !logProbabilities.isEmpty else { return 1 }
        return exp(-logProbabilities.reduce(0, +) / Double(logProbabilities.count))
    }
}

extension InferenceSession {
    /// Resets the session, then evaluates `ids` from position 0 with logits at every position: in
    /// batches (default), or one token per forward pass when `oneByOne` (as a generation decodes).
    /// `observe` sees each position's logits in order.
    public func scoreAll(_ ids: [Int32], oneByOne: Bool = false,
                         observe: (UnsafeMutableBufferPointer<Float>) -> Void = { _ in }) throws(InferenceError) -> SequenceScore {
        reset()
        try validate(ids)
        var top1 = [Int32](repeating: 0, count: ids.count)
        var logProbabilities = [Double](repeating: 0, count: max(0, ids.count - 1))
        func record(_ i: Int, _ logits: UnsafeMutableBufferPointer<Float>) {
            observe(logits)
            top1[i] = Int32(LogitMath.argmax(logits))
            if i + 1 < ids.count {
                logProbabilities[i] = LogitMath.logProbability(of: Int(ids[i + 1]), in: logits)
            }
        }
        if oneByOne {
            for (i, id) in ids.enumerated() { record(i, try decode(id)) }
        } else {
            run(ids, logitsForAll: true, onLogits: record)
        }
        return SequenceScore(top1: top1, logProbabilities: logProbabilities)
    }
}

/// Reductions over a logits row.
public enum LogitMath {
    /// Index of the largest logit (first on ties).
    public static func argmax(_ logits: UnsafeMutableBufferPointer<Float>) -> Int {
        var best = 0
        var bestValue = -Float.infinity
        for i in 0..<logits.count where logits[i] > bestValue { bestValue = logits[i]; best = i }
        return best
    }

    /// log softmax(logits)[index], computed in double.
    public static func logProbability(of index: Int, in logits: UnsafeMutableBufferPointer<Float>) -> Double {
        var maxValue = -Float.infinity
        for v in logits { maxValue = max(maxValue, v) }
        var sum: Double = 0
        for v in logits { sum += Double(expf(v - maxValue)) }
        return Double(logits[index] - maxValue) - log(sum)
    }

    /// The `k` largest logits as (id, value), largest first.
    public static func top(_ k: Int, _ logits: UnsafeMutableBufferPointer<Float>) -> [(id: Int32, logit: Float)] {
        var best: [(id: Int32, logit: Float)] = []
        for i in 0..<logits.count {
            let v = logits[i]
            if best.count < k || v > best[best.count - 1].logit {
                let at = best.firstIndex { v > $0.logit } ?? best.count
                best.insert((Int32(i), v), at: at)
                if best.count > k { best.removeLast() }
            }
        }
        return best
    }
}
