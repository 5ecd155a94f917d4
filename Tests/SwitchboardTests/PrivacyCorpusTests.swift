import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit

/// The privacy corpus (`Tests/Fixtures/privacy/corpus.txt`) through the analyzer: every sensitive line
/// sensitive, every personal line at least personal, public lines marked sensitive under 2%.
@Suite("Privacy corpus")
struct PrivacyCorpusTests {
    static let corpus: PrivacyCorpus = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/privacy/corpus.txt")
        return (try? PrivacyCorpus(contentsOf: url)) ?? PrivacyCorpus(lines: [])
    }()
    let analyzer = ContentAnalyzer()

    func level(_ text: String) -> PrivacyLevel {
        (try? analyzer.analyze(GenerationRequest(prompt: text)))?.privacy ?? .sensitive
    }

    @Test func corpusIsLargeAndCoversEveryLabel() {
        #expect(Self.corpus.lines(labelled: .sensitive).count >= 250)
        #expect(Self.corpus.lines(labelled: .personal).count >= 40)
        #expect(Self.corpus.lines(labelled: .public).count >= 150)
    }

    @Test func everySensitiveLineIsSensitive() {
        let missed = Self.corpus.lines(labelled: .sensitive).filter { level($0.text) != .sensitive }
        #expect(missed.isEmpty, "missed: \(missed.map { "\($0.lineNumber) [\($0.family)] \($0.text.debugDescription)" }.joined(separator: "\n"))")
    }

    @Test func everyPersonalLineIsAtLeastPersonal() {
        let missed = Self.corpus.lines(labelled: .personal).filter { level($0.text) < .personal }
        #expect(missed.isEmpty, "missed: \(missed.map { "\($0.lineNumber) \($0.text.debugDescription)" }.joined(separator: "\n"))")
    }

    @Test func publicLinesRarelySensitive() {
        let lines = Self.corpus.lines(labelled: .public)
        let flagged = lines.filter { level($0.text) == .sensitive }
        #expect(flagged.count * 50 < lines.count,
                "sensitive: \(flagged.map { "\($0.lineNumber) \($0.text.debugDescription)" }.joined(separator: "\n"))")
    }
}
