/// Why analysis could not finish; the analyzer then fails closed.
public enum AnalysisFailure: Error, Sendable, Hashable {
    case tooLarge(bytes: Int, limit: Int)
}

/// The pure analysis behind `RequestAnalyzer`: runs the recognizers over every text of a request.
public struct ContentAnalyzer: Sendable {
    public var configuration: AnalyzerConfiguration

    public init(configuration: AnalyzerConfiguration = .init()) { self.configuration = configuration }

    public func analyze(_ request: GenerationRequest) throws(AnalysisFailure) -> RequestAnalysis {
        var bytes = 0
        for text in request.allText { bytes += text.utf8.count }
        guard bytes <= configuration.maxAnalyzedBytes else {
            throw .tooLarge(bytes: bytes, limit: configuration.maxAnalyzedBytes)
        }
        var entities: [DetectedEntity] = []
        var privacy = PrivacyLevel.public
        if request.memory?.containsPersonalData == true {
            entities.append(DetectedEntity(kind: .personalMemory))
            privacy = .personal
        }
        return RequestAnalysis(privacy: privacy, entities: entities, estimatedPromptTokens: (bytes + 3) / 4,
                               imageCount: request.images.count, wantsStructuredOutput: request.output.isStructured,
                               latencyBudget: request.latencyBudget)
    }
}
