import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit

/// The issue-25 corpus (`Tests/Fixtures/privacy/identity-secrets.txt`: national ids of 45+ schemes, bank
/// pairs, IMEI/VIN, evasions, new secret shapes, placeholders and invalid-checksum look-alikes) through the
/// analyzer: every sensitive line sensitive, every personal line at least personal, public lines marked
/// sensitive under 3%.
@Suite("Identity and secrets corpus")
struct IdentitySecretsCorpusTests {
    static let corpus: PrivacyCorpus = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/privacy/identity-secrets.txt")
        return (try? PrivacyCorpus(contentsOf: url)) ?? PrivacyCorpus(lines: [])
    }()
    let analyzer = ContentAnalyzer()

    func level(_ text: String) -> PrivacyLevel {
        (try? analyzer.analyze(GenerationRequest(prompt: text)))?.privacy ?? .sensitive
    }

    @Test func corpusCoversEveryFamily() {
        #expect(Self.corpus.lines.count >= 350)
        let families = Set(Self.corpus.lines.map(\.family))
        #expect(families.filter { $0.hasPrefix("id-") }.count >= 35)
        for family in ["fin-routing-account", "fin-bic-account", "device-imei", "vehicle-vin", "evasion-digits", "evasion-homoglyph",
                       "evasion-rot13", "evasion-hex", "evasion-html", "evasion-percent", "evasion-reversed", "evasion-leet",
                       "evasion-spaced", "evasion-multilingual", "secret-connection", "secret-sas", "secret-webhook", "secret-docker",
                       "secret-sshkey", "secret-seed", "secret-hexkey", "secret-wireguard", "secret-bot", "secret-2fa", "secret-pin",
                       "placeholder", "lookalike-checksum"] {
            #expect(families.contains(family), "\(family)")
        }
    }

    @Test func everySensitiveLineIsSensitive() {
        let missed = Self.corpus.lines(labelled: .sensitive).filter { level($0.text) != .sensitive }
        #expect(missed.isEmpty, "missed: \(missed.map { "\($0.lineNumber) [\($0.family)]" }.joined(separator: "\n"))")
    }

    @Test func everyPersonalLineIsAtLeastPersonal() {
        let missed = Self.corpus.lines(labelled: .personal).filter { level($0.text) < .personal }
        #expect(missed.isEmpty, "missed: \(missed.map { "\($0.lineNumber) [\($0.family)]" }.joined(separator: "\n"))")
    }

    @Test func publicLinesRarelySensitive() {
        let lines = Self.corpus.lines(labelled: .public)
        #expect(lines.count >= 100)
        let flagged = lines.filter { level($0.text) == .sensitive }
        #expect(flagged.count * 100 < lines.count * 3, "sensitive: \(flagged.map { "\($0.lineNumber) [\($0.family)]" }.joined(separator: "\n"))")
    }

    /// The look-alikes whose check digit was broken are not that scheme: none may be sensitive.
    @Test func brokenCheckDigitsAreNotIdentityNumbers() {
        let lines = Self.corpus.lines.filter { $0.family == "lookalike-checksum" }
        #expect(lines.count >= 25)
        for line in lines { #expect(level(line.text) < .sensitive, "line \(line.lineNumber)") }
    }
}
