import Foundation

extension Sampler {
    /// Fills `candidates` with the tokens that survive top-k, top-p and min-p, best first, and returns
    /// how many survive (always at least one). Without top-k, the candidate list starts small and
    /// grows only until it provably holds every survivor, instead of sorting the whole vocabulary.
    mutating func selectCandidates(_ logits: UnsafeBufferPointer<Float>, maxLogit: Float, inverseTemperature: Float) -> Int {
        let config = configuration
        // min-p keeps p ≥ minP·p_max, i.e. logit ≥ max + T·ln(minP).
        let minLogit = config.minP > 0 ? maxLogit + config.temperature * Float(log(Double(config.minP))) : -Float.infinity
        if config.topK > 0 {
            let count = selectTop(min(config.topK, logits.count), from: logits)
            var total: Double = 0
            for i in 0..<count { total += Double(Self.weight(candidates[i].logit, maxLogit, inverseTemperature)) }
            return survivors(count, total: total, minLogit: minLogit, maxLogit: maxLogit, inverseTemperature: inverseTemperature)
        }
        // The full normaliser is only needed for top-p.
        var total: Double = 0
        if config.topP < 1 {
            for logit in logits { total += Double(Self.weight(logit, maxLogit, inverseTemperature)) }
        }
        var k = min(64, logits.count)
        while true {
            let count = selectTop(k, from: logits)
            let kept = survivors(count, total: total, minLogit: minLogit, maxLogit: maxLogit, inverseTemperature: inverseTemperature)
            // Survivors form a prefix; if it ends before the list does, nothing beyond k could join it.
            if kept < count || count == logits.count { return kept }
            k = min(k * 4, logits.count)
        }
    }

    /// Length of the prefix of `candidates[0..<count]` kept by top-p (against `total`) and min-p.
    private func survivors(_ count: Int, total: Double, minLogit: Float, maxLogit: Float, inverseTemperature: Float) -> Int {
        let topP = configuration.topP
        var cumulative: Double = 0
        for i in 0..<count {
            if i > 0, candidates[i].logit < minLogit { return i }
            cumulative += Double(Self.weight(candidates[i].logit, maxLogit, inverseTemperature))
            if topP < 1, cumulative >= Double(topP) * total { return i + 1 }
        }
        return count
    }

    /// Puts the best `k` logits into `candidates`, sorted best first, using a size-k min-heap.
    mutating func selectTop(_ k: Int, from logits: UnsafeBufferPointer<Float>) -> Int {
        candidates.removeAll(keepingCapacity: true)
        guard k > 0 else { return 0 }
        candidates.reserveCapacity(k)
        for i in 0..<logits.count {
            let logit = logits[i].isNaN ? -Float.infinity : logits[i]
            let candidate = Candidate(id: Int32(i), logit: logit)
            if candidates.count < k {
                candidates.append(candidate)
                siftUp(candidates.count - 1)
            } else if candidate.beats(candidates[0]) {
                candidates[0] = candidate
                siftDown(0, count: k)
            }
        }
        // Heap-sort in place: repeatedly move the worst to the end, leaving best first.
        var end = candidates.count
        while end > 1 {
            end -= 1
            candidates.swapAt(0, end)
            siftDown(0, count: end)
        }
        return candidates.count
    }

    /// Min-heap on rank: the root is the worst candidate kept so far.
    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard candidates[parent].beats(candidates[child]) else { return }
            candidates.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int, count: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = parent
            if left < count, candidates[worst].beats(candidates[left]) { worst = left }
            if right < count, candidates[worst].beats(candidates[right]) { worst = right }
            guard worst != parent else { return }
            candidates.swapAt(parent, worst)
            parent = worst
        }
    }
}
