import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardLocal
import SwitchboardTestKit

/// `chaos [--json]`: a fault matrix through the whole runtime against real HTTP servers on 127.0.0.1
/// (`FaultyChatServer`, started and stopped by the command): three OpenAI-compatible remotes plus the
/// on-device SmolLM2 (`--model PATH`, loaded once). Per scenario: fresh servers and coordinator,
/// `--requests` requests (about one in ten sensitive), `--concurrency` at a time. One row per
/// scenario (success rate, attempts, resumes, hedges, p50/p99, what the servers received), the
/// bookkeeping line and the figures, checked. `--full` runs every fault at every rate;
/// `--only TEXT` keeps the scenarios whose name contains TEXT.
enum ChaosCommand: BenchCommand {
    static let name = "chaos"
    static let summary = "fault matrix against loopback OpenAI-compatible servers + the local model [--json] [--full] [--requests N]"
    static let options: [BenchOption]? = [
        .flag("json"), .flag("full"), .text("only"), .integer("requests", 1...100_000), .integer("concurrency", 1...256),
        .integer("max-tokens", 1...256), .seed(),
    ] + BenchOption.localModel

    static func run(_ arguments: Arguments) async -> Int32 {
        var settings = ChaosSettings()
        settings.requests = arguments.int("requests") ?? settings.requests
        settings.concurrency = arguments.int("concurrency") ?? settings.concurrency
        settings.maxTokens = arguments.int("max-tokens") ?? settings.maxTokens
        settings.seed = arguments.uint64("seed") ?? settings.seed
        let json = arguments.flag("json")
        var scenarios = ChaosScenario.matrix(full: arguments.flag("full"), seed: settings.seed)
        if let only = arguments.string("only") {
            scenarios = scenarios.filter { $0.name.localizedCaseInsensitiveContains(only) }
            guard !scenarios.isEmpty else { printError("chaos: no scenario matches --only '\(BenchOption.shown(only))'"); return 64 }
        }

        let path = arguments.string("model") ?? BenchLocalModel.chatPath(arguments)
        let local = BenchLocalModel.makeProvider(.smolLM2_135mInstruct, path: path, threads: BenchLocalModel.threads(arguments))
        guard await BenchLocalModel.load(local, quiet: json) else { return 1 }

        let clock = ContinuousClock()
        let started = clock.now
        var rows: [ChaosRow] = []
        if !json { emit(ChaosReport.header) }
        for (index, scenario) in scenarios.enumerated() {
            do {
                let row = try await ChaosRun.run(scenario, local: local, settings: settings)
                rows.append(row)
                if json {
                    printError("chaos: \(index + 1)/\(scenarios.count) \(scenario.name): \(row.completed)/\(row.requests) completed")
                } else {
                    emit(ChaosReport.line(row))
                }
            } catch {
                printError("chaos: cannot start the loopback servers for \(scenario.name): \(error)")
                return 1
            }
        }
        let report = ChaosReport(rows: rows, wallSeconds: started.duration(to: clock.now).seconds)
        if json {
            emit(report.json())
        } else {
            emit(report.text().split(separator: "\n", omittingEmptySubsequences: false).dropFirst(rows.count + 1).joined(separator: "\n"))
        }
        return report.checks.allSatisfy(\.passed) ? 0 : 1
    }

    /// Unbuffered: a row appears as soon as its scenario ends, also in a pipe or a file.
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
