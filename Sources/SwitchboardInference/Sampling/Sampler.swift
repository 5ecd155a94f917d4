import Foundation

/// Chooses the next token from logits: repetition penalty, then temperature, top-k, top-p and min-p,
/// then a draw from a seeded generator, so a given seed replays the same tokens. Scratch space is
/// kept in the struct and reused, so sampling does not allocate once warmed up; top-k uses a
/// bounded heap rather than sorting the whole vocabulary.
public struct Sampler: Sendable {
    public let configuration: SamplerConfiguration
    private var random: SplitMix64
    /// Top candidates, best first (logit descending, then id ascending).
    var candidates: [Candidate] = []
    private var penalized: [Int32] = []
    /// Per-token weights when sampling from the whole distribution.
    private var weights: [Float] = []

    struct Candidate: Sendable {
        var id: Int32
        var logit: Float
        /// Strict "ranks higher": larger logit, then smaller id.
        @inline(__always) func beats(_ other: Candidate) -> Bool {
            logit != other.logit ? logit > other.logit : id < other.id
        }
    }

    public init(configuration: SamplerConfiguration) {
        self.configuration = configuration.sanitized
        random = SplitMix64(seed: configuration.seed)
    }

    /// Picks a token id. `logits` is modified in place (penalties). Returns 0 for empty logits.
    public mutating func sample(_ logits: UnsafeMutableBufferPointer<Float>, recent: some Collection<Int32>) -> Int32 {
        guard !logits.isEmpty else { return 0 }
        applyRepetitionPenalty(logits, recent: recent)
        let config = configuration
        if config.temperature == 0 || config.topK == 1 { return Self.argmax(UnsafeBufferPointer(logits)) }
        let values = UnsafeBufferPointer(logits)
        let maxLogit = values[Int(Self.argmax(values))]
        guard maxLogit.isFinite else { return Self.argmax(values) }
        let inverseTemperature = 1 / config.temperature
        if config.topK == 0, config.topP >= 1, config.minP <= 0 {
            return sampleFull(values, maxLogit: maxLogit, inverseTemperature: inverseTemperature)
        }
        let count = selectCandidates(values, maxLogit: maxLogit, inverseTemperature: inverseTemperature)
        var total: Float = 0
        for i in 0..<count { total += Self.weight(candidates[i].logit, maxLogit, inverseTemperature) }
        let target = random.nextFloat() * total
        var cumulative: Float = 0
        for i in 0..<count {
            cumulative += Self.weight(candidates[i].logit, maxLogit, inverseTemperature)
            if target < cumulative { return candidates[i].id }
        }
        return candidates[max(count - 1, 0)].id
    }

    /// Convenience for arrays.
    public mutating func sample(_ logits: inout [Float], recent: some Collection<Int32>) -> Int32 {
        logits.withUnsafeMutableBufferPointer { sample($0, recent: recent) }
    }

    /// Unnormalised probability of a logit after temperature.
    @inline(__always) static func weight(_ logit: Float, _ maxLogit: Float, _ inverseTemperature: Float) -> Float {
        logit.isNaN ? 0 : expf((logit - maxLogit) * inverseTemperature)
    }

    /// The highest logit's id; the lowest id wins ties and NaNs never win.
    public static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int32 {
        var best = 0
        var bestValue = -Float.infinity
        var found = false
        for i in 0..<logits.count {
            let value = logits[i]
            if value > bestValue || (!found && !value.isNaN) {
                best = i
                bestValue = value
                found = true
            }
        }
        return Int32(best)
    }

    /// Draws from the whole distribution: one pass computes the weights (kept for the second), the
    /// second stops at the drawn point.
    private mutating func sampleFull(_ logits: UnsafeBufferPointer<Float>, maxLogit: Float, inverseTemperature: Float) -> Int32 {
        if weights.count < logits.count { weights = [Float](repeating: 0, count: logits.count) }
        return weights.withUnsafeMutableBufferPointer { weights in
            var total: Double = 0
            for i in 0..<logits.count {
                let w = Self.weight(logits[i], maxLogit, inverseTemperature)
                weights[i] = w
                total += Double(w)
            }
            let target = Double(random.nextFloat()) * total
            var cumulative: Double = 0
            var last = 0
            for i in 0..<logits.count where weights[i] > 0 {
                cumulative += Double(weights[i])
                last = i
                if target < cumulative { return Int32(i) }
            }
            return Int32(last)
        }
    }

    mutating func applyRepetitionPenalty(_ logits: UnsafeMutableBufferPointer<Float>, recent: some Collection<Int32>) {
        let penalty = configuration.repetitionPenalty
        guard penalty != 1, configuration.repetitionWindow > 0 else { return }
        penalized.removeAll(keepingCapacity: true)
        // Each distinct recent token is penalised once, however often it occurred.
        for id in recent.suffix(configuration.repetitionWindow) where id >= 0 && Int(id) < logits.count {
            guard !penalized.contains(id) else { continue }
            penalized.append(id)
            let logit = logits[Int(id)]
            logits[Int(id)] = logit <= 0 ? logit * penalty : logit / penalty
        }
    }
}
