import Foundation
import Switchboard

/// `switchboard analyze`: what the privacy analyzer decides for each text, and why.
enum AnalyzeCommand: CLICommand {
    static let name = "analyze"
    static let summary = "the privacy level of each text (arguments, or stdin one per line) and the findings behind it"
    static let usage = """
        usage: switchboard analyze [--json] [TEXT...]      (no TEXT: one text per line on stdin)
          prints each text's level (public, contextual, personal, sensitive) and its findings: entity kind and
          byte span. The text itself is never printed. Sensitive and personal text never leaves the device.
        """
    /// Findings listed per text; the level is decided on all of them.
    static let maxListed = 20

    static func run(_ arguments: CLIArguments) async -> ExitStatus {
        do throws(CLIArguments.UsageError) { try arguments.check(known: ["json"]) } catch { printError(error.message); return .usage }
        var texts = arguments.positional.isEmpty ? [] : [arguments.positional.joined(separator: " ")]
        if texts.isEmpty { while let line = readLine() { texts.append(line) } }
        let analyzer = ContentAnalyzer()
        for text in texts {
            let request = GenerationRequest(prompt: text)
            let analysis: RequestAnalysis
            var failure: String?
            do { analysis = try analyzer.analyze(request) } catch {
                analysis = .failClosed(for: request); failure = "\(error)"
            }
            let listed = analysis.entities.prefix(maxListed)
            if arguments.flag("json") {
                var object: [String: Any] = [
                    "privacy": analysis.privacy.description,
                    "findings": listed.map { ["kind": $0.kind.rawValue, "start": $0.range.lowerBound, "end": $0.range.upperBound] },
                    "findings_total": analysis.entities.count,
                ]
                if let failure { object["fail_closed"] = failure }
                let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
                print(String(decoding: data, as: UTF8.self))
            } else {
                var line = analysis.privacy.description
                if let failure { line += " (fail-closed: \(failure))" }
                for entity in listed { line += "  \(entity.kind.rawValue)@\(entity.range.lowerBound)..<\(entity.range.upperBound)" }
                if analysis.entities.count > listed.count { line += "  (+\(analysis.entities.count - listed.count) more)" }
                print(line)
            }
        }
        return .ok
    }
}
