import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit

/// The health, special-category and personal corpus (`Tests/Fixtures/privacy/health-special-personal.txt`,
/// 30 languages, written before the recognizers were tuned) through the analyzer: every sensitive line
/// sensitive, every personal line at least personal, public look-alikes marked sensitive under 3 %.
@Suite("Health, special categories and personal corpus")
struct HealthSpecialPersonalCorpusTests {
    static let corpus: PrivacyCorpus = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/privacy/health-special-personal.txt")
        return (try? PrivacyCorpus(contentsOf: url)) ?? PrivacyCorpus(lines: [])
    }()
    let analyzer = ContentAnalyzer()

    func level(_ text: String) -> PrivacyLevel {
        (try? analyzer.analyze(GenerationRequest(prompt: text)))?.privacy ?? .sensitive
    }

    @Test func corpusIsLargeAndCoversTwentyLanguages() {
        #expect(Self.corpus.lines.count >= 300)
        #expect(Self.corpus.lines(labelled: .sensitive).count >= 250)
        #expect(Self.corpus.lines(labelled: .personal).count >= 40)
        #expect(Self.corpus.lines(labelled: .public).count >= 100)
        let languages = Set(Self.corpus.lines.compactMap { $0.family.split(separator: "-").dropFirst().first.map(String.init) })
        #expect(languages.count >= 25, "\(languages.sorted())")
        let special = Set(Self.corpus.lines.filter { $0.family.hasPrefix("art9-") }.map(\.family))
        #expect(special.count >= 20, "\(special.sorted())")
    }

    @Test func everySensitiveLineIsSensitive() {
        let missed = Self.corpus.lines(labelled: .sensitive).filter { level($0.text) != .sensitive }
        #expect(missed.isEmpty, "missed \(missed.count): \(missed.map { "\($0.lineNumber) [\($0.family)] \($0.text)" }.joined(separator: "\n"))")
    }

    @Test func everyPersonalLineIsAtLeastPersonal() {
        let missed = Self.corpus.lines(labelled: .personal).filter { level($0.text) < .personal }
        #expect(missed.isEmpty, "missed \(missed.count): \(missed.map { "\($0.lineNumber) [\($0.family)] \($0.text)" }.joined(separator: "\n"))")
    }

    @Test func publicLinesRarelySensitive() {
        let lines = Self.corpus.lines(labelled: .public)
        let flagged = lines.filter { level($0.text) == .sensitive }
        #expect(flagged.count * 100 < lines.count * 3,
                "sensitive \(flagged.count) of \(lines.count): \(flagged.map { "\($0.lineNumber) \($0.text)" }.joined(separator: "\n"))")
    }
}
