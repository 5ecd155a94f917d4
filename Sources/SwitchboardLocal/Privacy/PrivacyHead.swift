import Foundation

/// A logistic-regression head over sentence embeddings: `sigmoid(w · x + b)`, the probability that a
/// text is personal or sensitive. Trained by `switchboard-bench privacy-train` on
/// `Benchmarks/Data/privacy-train.tsv` (never on the test corpora); the weights live in
/// `PrivacyHead+Trained.swift`, written by that command.
public struct PrivacyHead: Sendable, Hashable {
    public var weights: [Float]
    public var bias: Float
    /// Scores at or above this keep a request on the device.
    public var threshold: Double
    /// The embedding model the weights were trained on: they mean nothing for another.
    public var modelID: String

    public init(weights: [Float], bias: Float, threshold: Double, modelID: String) {
        self.weights = weights; self.bias = bias; self.threshold = threshold; self.modelID = modelID
    }

    public func score(_ vector: [Float]) -> Double {
        guard vector.count == weights.count, !weights.isEmpty else { return 1 }  // fail closed: a mismatch counts as private
        var sum = Double(bias)
        for index in 0..<weights.count { sum += Double(weights[index]) * Double(vector[index]) }
        return 1 / (1 + exp(-sum))
    }
}
