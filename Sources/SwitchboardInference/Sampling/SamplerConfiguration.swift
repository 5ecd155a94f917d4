/// How the next token is chosen from the logits. A filter is off at its neutral value:
/// `topK` 0, `topP` 1, `minP` 0, `repetitionPenalty` 1. `temperature` 0 means greedy (argmax).
public struct SamplerConfiguration: Sendable, Hashable {
    public var temperature: Float
    public var topK: Int
    public var topP: Float
    public var minP: Float
    /// llama.cpp style: positive logits of recent tokens are divided by it, negative ones multiplied.
    public var repetitionPenalty: Float
    /// How many of the most recent tokens the penalty looks at.
    public var repetitionWindow: Int
    public var seed: UInt64

    public init(
        temperature: Float = 0.8, topK: Int = 40, topP: Float = 0.95, minP: Float = 0.05,
        repetitionPenalty: Float = 1.0, repetitionWindow: Int = 64, seed: UInt64 = 0
    ) {
        self.temperature = temperature
        self.topK = topK
        self.topP = topP
        self.minP = minP
        self.repetitionPenalty = repetitionPenalty
        self.repetitionWindow = repetitionWindow
        self.seed = seed
    }

    /// Always the most likely token, no penalty.
    public static let greedy = SamplerConfiguration(temperature: 0, topK: 0, topP: 1, minP: 0, repetitionPenalty: 1)

    /// The same settings with every out-of-range value clamped to its nearest meaningful value,
    /// so a bad request degrades to a sensible sampler rather than producing NaNs.
    public var sanitized: SamplerConfiguration {
        var copy = self
        copy.temperature = temperature.isFinite ? max(temperature, 0) : 0
        copy.topK = max(topK, 0)
        copy.topP = topP.isFinite ? min(max(topP, 0), 1) : 1
        copy.minP = minP.isFinite ? min(max(minP, 0), 1) : 0
        copy.repetitionPenalty = repetitionPenalty.isFinite && repetitionPenalty > 0 ? repetitionPenalty : 1
        copy.repetitionWindow = max(repetitionWindow, 0)
        return copy
    }
}
