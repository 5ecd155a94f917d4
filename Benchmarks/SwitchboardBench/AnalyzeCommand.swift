import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// `analyze`: classifies prompts read from stdin, one per line, printing one JSON line each:
/// `{"privacy": "...", "entities": ["payment_card", ...], "reasons": [{"recognizer": "number", "kind":
/// "payment_card", "text": 0, "span": [11, 30]}], "omitted": 0}`: each decision's reasons (which recognizer
/// and rule, the kind, the UTF-8 byte span in the prompt; never the text itself), at most `--max-entities`
/// of them (default 100; `omitted` counts the rest, and the privacy level is decided from all). `--timing` prints the mean analysis time per
/// prompt on stderr; `--repeat N` analyzes the whole input N times for a steadier figure (output once);
/// `--disable kind,kind` switches recognizers off (entity kind raw values), to see what each costs.
/// `--corpus PATH` reads a labelled corpus (`Tests/Fixtures/privacy/corpus.txt`) instead and prints
/// recall per label and the public lines' false-positive rate.
enum AnalyzeCommand: BenchCommand {
    static let name = "analyze"
    static let summary = "classify prompts from stdin (one per line); prints privacy and entity kinds as JSON"
    static let options: [BenchOption]? = [.text("corpus"), .text("disable"), .flag("timing"), .integer("repeat", 1...1_000_000),
                                                 .integer("max-entities", 0...100_000)]

    static func run(_ arguments: Arguments) async -> Int32 {
        if let path = arguments.string("corpus") { return corpusFigures(path) }
        var prompts: [String] = []
        while let line = readLine(strippingNewline: true) { prompts.append(line) }
        var disabled = Set<EntityKind>()
        for name in (arguments.string("disable") ?? "").split(separator: ",") {
            guard let kind = EntityKind(rawValue: String(name)) else {
                printError("unknown entity kind '\(name)'; known: \(EntityKind.allCases.map(\.rawValue).joined(separator: ", "))")
                return 64
            }
            disabled.insert(kind)
        }
        let cap = arguments.int("max-entities") ?? 100
        let analyzer = ContentAnalyzer(configuration: AnalyzerConfiguration(disabledKinds: disabled, maxEntities: cap))
        let requests = prompts.map { GenerationRequest(prompt: $0) }
        var output = ""
        for request in requests {
            output += json(analyzer.analysis(of: request)) + "\n"
            if output.utf8.count > 1 << 16 { FileHandle.standardOutput.write(Data(output.utf8)); output = "" }
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        guard arguments.flag("timing"), !requests.isEmpty else { return 0 }
        let rounds = max(1, arguments.int("repeat") ?? 1)
        let clock = ContinuousClock()
        var privateCount = 0
        let elapsed = clock.measure {
            for _ in 0..<rounds {
                for request in requests where ((try? analyzer.analyze(request))?.privacy ?? .sensitive) > .public {
                    privateCount += 1
                }
            }
        }
        let count = rounds * requests.count
        let meanBytes = Double(prompts.reduce(0) { $0 + $1.utf8.count }) / Double(prompts.count)
        // The median over every prompt of every round, each timed on its own (a mean hides the typical
        // prompt behind a few long ones).
        var samples: [Double] = []
        samples.reserveCapacity(min(count, 1 << 22))
        for _ in 0..<rounds {
            for request in requests where samples.count < 1 << 22 {
                samples.append(clock.measure { _ = try? analyzer.analyze(request) }.seconds * 1e6)
            }
        }
        samples.sort()
        let p50 = samples.isEmpty ? 0 : samples[samples.count / 2]
        printError(String(format: "analyzed %d prompts (mean %.0f bytes, %d non-public), mean %.2f µs, p50 %.2f µs per prompt",
                          count, meanBytes, privateCount, elapsed.seconds * 1e6 / Double(count), p50))
        return 0
    }

    /// One JSON line: the level, the entity kinds, each one's reason and how many were left out.
    static func json(_ analysis: RequestAnalysis) -> String {
        let kinds = analysis.entities.map { "\"\($0.kind.rawValue)\"" }.joined(separator: ", ")
        let reasons = analysis.entities.map { entity in
            "{\"recognizer\": \"\(entity.recognizer)\", \"kind\": \"\(entity.kind.rawValue)\", \"text\": \(entity.textIndex), "
                + "\"span\": [\(entity.range.lowerBound), \(entity.range.upperBound)]}"
        }.joined(separator: ", ")
        return "{\"privacy\": \"\(analysis.privacy)\", \"entities\": [\(kinds)], \"reasons\": [\(reasons)], "
            + "\"omitted\": \(analysis.omittedEntities)}"
    }

    /// Recall of sensitive and personal lines and the public lines marked sensitive or personal.
    static func corpusFigures(_ path: String) -> Int32 {
        let corpus: PrivacyCorpus
        do { corpus = try PrivacyCorpus(contentsOf: URL(fileURLWithPath: path)) } catch {
            printError("cannot read corpus \(path): \(error)"); return 1
        }
        let analyzer = ContentAnalyzer()
        func level(_ text: String) -> PrivacyLevel {
            (try? analyzer.analyze(GenerationRequest(prompt: text)))?.privacy ?? .sensitive
        }
        let sensitive = corpus.lines(labelled: .sensitive), personal = corpus.lines(labelled: .personal)
        let publicLines = corpus.lines(labelled: .public)
        let sensitiveHits = sensitive.filter { level($0.text) == .sensitive }.count
        let personalHits = personal.filter { level($0.text) >= .personal }.count
        let publicLevels = publicLines.map { level($0.text) }
        let publicSensitive = publicLevels.filter { $0 == .sensitive }.count
        let publicPersonal = publicLevels.filter { $0 == .personal }.count
        func percent(_ part: Int, _ whole: Int) -> String { String(format: "%.1f%%", whole == 0 ? 0 : 100 * Double(part) / Double(whole)) }
        print("sensitive lines: \(sensitive.count), sensitive: \(sensitiveHits) (recall \(percent(sensitiveHits, sensitive.count)))")
        print("personal lines: \(personal.count), at least personal: \(personalHits) (recall \(percent(personalHits, personal.count)))")
        print("public lines: \(publicLines.count), marked sensitive: \(publicSensitive) (\(percent(publicSensitive, publicLines.count))), "
            + "marked personal: \(publicPersonal) (\(percent(publicPersonal, publicLines.count)))")
        for (line, level) in zip(publicLines, publicLevels) where level >= .personal {
            let reasons = json(analyzer.analysis(of: GenerationRequest(prompt: line.text)))
            print("  public line \(line.lineNumber) [\(line.family)] read as \(level): \(reasons)")
        }
        for line in sensitive + personal where level(line.text) < line.label {
            let reasons = json(analyzer.analysis(of: GenerationRequest(prompt: line.text)))
            print("  \(line.label) line \(line.lineNumber) [\(line.family)] missed: \(reasons)")
        }
        return 0
    }
}

extension ContentAnalyzer {
    /// The analysis, or the fail-closed one when analysis fails.
    func analysis(of request: GenerationRequest) -> RequestAnalysis { (try? analyze(request)) ?? .failClosed(for: request) }
}
