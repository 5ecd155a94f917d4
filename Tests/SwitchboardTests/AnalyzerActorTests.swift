import Testing
import Switchboard
import SwitchboardCore

@Suite struct AnalyzerActorTests {
    @Test func classifies() async {
        let analyzer = RequestAnalyzer()
        #expect(analyzer.analyze(GenerationRequest(prompt: "SSN 123-45-6789")).privacy == .sensitive)
        #expect(analyzer.analyze(GenerationRequest(prompt: "What is 2+2?")).privacy == .public)
    }

    @Test func internalFailureFailsClosed() async {
        let analyzer = RequestAnalyzer(configuration: AnalyzerConfiguration(maxAnalyzedBytes: 8))
        let request = GenerationRequest(prompt: "What is the capital of France?", output: .jsonSchema("{}"))
        let analysis = analyzer.analyze(request)
        #expect(analysis == .failClosed(for: request))
        #expect(analysis.privacy == .sensitive)
    }

    @Test func descriptionsNeverContainTheSecret() async {
        let analysis = RequestAnalyzer().analyze(GenerationRequest(prompt: "my password is hunter2! and AKIAIOSFODNN7EXAMPLE"))
        #expect(analysis.privacy == .sensitive)
        for text in [String(describing: analysis), String(reflecting: analysis)] {
            #expect(!text.contains("hunter2"))
            #expect(!text.contains("AKIAIOSFODNN7EXAMPLE"))
        }
    }
}
