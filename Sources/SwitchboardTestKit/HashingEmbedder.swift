import SwitchboardCore

/// A deterministic on-device embedder for tests: each lower-cased word (and each pair of adjacent
/// words) adds ±1 to a few hashed dimensions, then the vector is L2-normalized. Texts that share
/// words are close; it knows no meaning, so use it to test storage and routing, not retrieval quality.
public struct HashingEmbedder: Embedder {
    public let modelID: String
    public let dimension: Int
    public let isOnDevice: Bool

    public init(dimension: Int = 64, modelID: String = "hashing-test", isOnDevice: Bool = true) {
        self.dimension = max(1, dimension); self.modelID = modelID; self.isOnDevice = isOnDevice
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] { texts.map(vector) }

    public func vector(_ text: String) -> [Float] {
        var vector = [Float](repeating: 0, count: dimension)
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        for (index, word) in words.enumerated() {
            add(word, to: &vector)
            if index > 0 { add(words[index - 1] + " " + word, to: &vector, weight: 0.5) }
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }

    private func add(_ token: String, to vector: inout [Float], weight: Float = 1) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in token.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        for probe in 0..<3 {
            let mixed = (hash &+ UInt64(probe) &* 0x9E37_79B9_7F4A_7C15) ^ (hash >> 29)
            vector[Int(mixed % UInt64(dimension))] += (mixed >> 63) == 0 ? weight : -weight
        }
    }
}
