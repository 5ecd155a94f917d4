import Foundation
import Switchboard
import SwitchboardCore

/// `analyze`: classifies prompts read from stdin, one per line, printing one JSON line each:
/// `{"privacy": "...", "entities": ["payment_card", ...]}`. With `--timing`, also prints the mean
/// analysis time per prompt (µs) on stderr.
enum AnalyzeCommand: BenchCommand {
    static let name = "analyze"
    static let summary = "classify prompts from stdin (one per line) and print privacy + entity kinds as JSON"

    static func run(_ arguments: Arguments) async -> Int32 {
        let analyzer = ContentAnalyzer()
        let clock = ContinuousClock()
        var total = Duration.zero
        var count = 0
        var output = ""
        while let line = readLine(strippingNewline: true) {
            let request = GenerationRequest(prompt: line)
            let start = clock.now
            let analysis = (try? analyzer.analyze(request)) ?? .failClosed(for: request)
            total += start.duration(to: clock.now)
            count += 1
            let kinds = analysis.entities.map { "\"\($0.kind.rawValue)\"" }.joined(separator: ", ")
            output += "{\"privacy\": \"\(analysis.privacy)\", \"entities\": [\(kinds)]}\n"
            if output.utf8.count > 1 << 16 { FileHandle.standardOutput.write(Data(output.utf8)); output = "" }
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        if arguments.flag("timing"), count > 0 {
            let micros = total.seconds * 1e6 / Double(count)
            printError(String(format: "analyzed %d prompts, mean %.2f µs per prompt", count, micros))
        }
        return 0
    }
}
