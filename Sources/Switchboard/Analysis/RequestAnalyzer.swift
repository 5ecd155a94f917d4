import SwitchboardCore

/// Classifies a request's privacy and estimates its size, complexity and language. Never throws: an
/// internal failure gives `RequestAnalysis.failClosed` (sensitive), so an unreadable request stays on device.
///
/// Still an actor (the design's analyzer component), but it holds nothing mutable: `analyze` is a pure
/// function of the immutable configuration, so it is `nonisolated` and runs on the caller's thread with
/// no hop, and two callers analyze in parallel.
public actor RequestAnalyzer {
    private nonisolated let analyzer: ContentAnalyzer

    public init(configuration: AnalyzerConfiguration = .init()) {
        analyzer = ContentAnalyzer(configuration: configuration)
    }

    public nonisolated func analyze(_ request: GenerationRequest) -> RequestAnalysis {
        do {
            return try analyzer.analyze(request)
        } catch {
            return .failClosed(for: request)
        }
    }
}
