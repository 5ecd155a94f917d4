import SwitchboardCore

/// The on-device privacy classifier: each text cut into windows of about `windowWords` words (a long
/// note is private if any part of it is), every window embedded by the on-device encoder in one batch,
/// and scored by `PrivacyHead`; a text's score is its highest window's.
///
/// `Coordinator(configuration: SwitchboardConfiguration(privacyClassifier: EmbeddingPrivacyClassifier(...)))`.
public struct EmbeddingPrivacyClassifier: PrivacyClassifier {
    public let head: PrivacyHead
    public var threshold: Double { head.threshold }
    let embedder: any Embedder
    let windowWords: Int
    /// Windows scored per request at most: a 4 MB prompt costs a bounded number of encoder passes, and the
    /// part past the cap is judged by the recognizers alone (which read all of it).
    let maxWindows: Int

    public init(embedder: any Embedder, head: PrivacyHead = .trained, windowWords: Int = 96, maxWindows: Int = 64) {
        self.embedder = embedder; self.head = head
        self.windowWords = max(8, windowWords); self.maxWindows = max(1, maxWindows)
    }

    public func scores(_ texts: [String]) async throws -> [Double] {
        guard embedder.isOnDevice, embedder.dimension == head.weights.count else { return texts.map { _ in 1 } }
        var windows: [String] = []
        var owner: [Int] = []
        for (index, text) in texts.enumerated() {
            for window in Self.windows(text, words: windowWords) where windows.count < maxWindows {
                windows.append(window); owner.append(index)
            }
        }
        guard !windows.isEmpty else { return texts.map { _ in 0 } }
        let vectors = try await embedder.embed(windows)
        guard vectors.count == windows.count else { return texts.map { _ in 1 } }
        var scores = [Double](repeating: 0, count: texts.count)
        for (vector, index) in zip(vectors, owner) { scores[index] = max(scores[index], head.score(vector)) }
        return scores
    }

    /// Overlapping windows (half a window apart), so a private phrase is never cut in two.
    static func windows(_ text: String, words size: Int) -> [String] {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count > size else { return words.isEmpty ? [] : [text] }
        var windows: [String] = []
        var start = 0
        while start < words.count {
            windows.append(words[start..<min(words.count, start + size)].joined(separator: " "))
            if start + size >= words.count { break }
            start += size / 2
        }
        return windows
    }
}
