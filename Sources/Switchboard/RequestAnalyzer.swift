import SwitchboardCore

/// Classifies a request's privacy and estimates its size, complexity and language. Never throws: an
/// internal failure gives `RequestAnalysis.failClosed` (sensitive), so an unreadable request stays on device.
public actor RequestAnalyzer {
    private let analyzer: ContentAnalyzer

    public init(configuration: AnalyzerConfiguration = .init()) {
        analyzer = ContentAnalyzer(configuration: configuration)
    }

    public func analyze(_ request: GenerationRequest) -> RequestAnalysis {
        do {
            return try analyzer.analyze(request)
        } catch {
            return .failClosed(for: request)
        }
    }
}
