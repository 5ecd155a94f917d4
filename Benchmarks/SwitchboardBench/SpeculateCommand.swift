import Foundation
import SwitchboardCore
import SwitchboardInference
import SwitchboardLocal

/// `switchboard-bench speculate --model PATH [--json] [--tasks N] [--max-tokens N] [--repeat N]`:
/// decode speed with and without speculative decoding (prompt-lookup drafts, a schema's forced
/// tokens), same prompts, greedy, one sequence. Two sets: the extraction notes of
/// `Benchmarks/Data/speculate-tasks.json` (answers that copy the note), and the structured tasks
/// (each note's schema, plus the 12 public structured tasks). Every task runs plain
/// (`speculative: false`) and speculative one after the other on a generator that keeps no KV
/// between requests; the figures are decode tokens/s over the whole set (tokens after the first over
/// decode time), forward passes, accepted drafts, and whether every speculative output is the plain
/// greedy output token for token (and, structured, valid against its schema). Exits 1 when one is not.
enum SpeculateCommand: BenchCommand {
    static let name = "speculate"
    static let summary = "decode tok/s with and without speculative decoding, extraction and structured tasks; --json"

    static let options: [BenchOption]? = [
        .flag("json"), .flag("details"), .integer("tasks", 1...1000), .integer("max-tokens", 1...1024), .integer("repeat", 1...100),
        .text("data"), .text("public-structured"), .flag("no-public"),
    ] + BenchOption.localModel

    static let defaultMaxTokens = 192

    static func run(_ arguments: Arguments) async -> Int32 {
        let path = arguments.string("model") ?? BenchLocalModel.chatPath(arguments)
        let maxTokens = arguments.int("max-tokens") ?? defaultMaxTokens
        let repeats = arguments.int("repeat") ?? 1
        let limit = arguments.int("tasks") ?? .max
        let threads = BenchLocalModel.threads(arguments)
        let json = arguments.flag("json")

        let set: SpeculateTaskSet
        var publicTasks: [(id: String, prompt: String, schema: GenerationSchema)] = []
        do {
            set = try SpeculateTaskSet.load(path: SpeculateTaskSet.resolve(arguments.string("data") ?? SpeculateTaskSet.defaultPath))
            if !arguments.flag("no-public") {
                let publicPath = arguments.string("public-structured") ?? SpeculateTaskSet.defaultPublicStructuredPath
                publicTasks = try SpeculateTaskSet.publicStructured(path: SpeculateTaskSet.resolve(publicPath))
            }
        } catch {
            printError(error.description); return 64
        }
        let notes = Array(set.tasks.prefix(limit))
        guard !notes.isEmpty else { printError("speculate: the task file has no tasks"); return 64 }

        let model: LanguageModel
        do { model = try LanguageModel.load(from: path) } catch { printError("speculate: \(error)"); return 1 }
        guard let template = model.chatTemplate else { printError("speculate: \(path) has no chat template; use the instruct model"); return 64 }
        let runner = SpeculateRunner(model: model, template: template, maxTokens: maxTokens, threads: threads)

        let extraction: [SpeculatePrompt], structured: [SpeculatePrompt]
        do {
            extraction = try notes.map { try runner.prompt(id: $0.id, text: $0.prompt, schema: nil, facts: $0.facts) }
            let fromNotes = try notes.compactMap { task in
                try task.structured.map { try runner.prompt(id: task.id + "/json", text: task.note + "\n\n" + $0.instruction,
                                                            schema: $0.schema, facts: task.facts) }
            }
            structured = try fromNotes + publicTasks.prefix(limit).map { try runner.prompt(id: $0.id, text: $0.prompt, schema: $0.schema, facts: []) }
        } catch {
            printError("speculate: \(error)"); return BenchSchema.exitCode(for: error)
        }

        let start = ContinuousClock.now
        var plainTally = SpeculateTally(), structuredTally = SpeculateTally()
        do {
            // One uncounted generation first, on the longest prompt: the weights paged in, the threads up,
            // and the KV cache's pages touched as far as any task reaches, so the first timed run pays
            // no one-off cost the others do not.
            let longest = (extraction + structured).max { $0.ids.count < $1.ids.count } ?? extraction[0]
            _ = try await runner.generate(longest, speculative: false)
            if !json { print(SpeculateReport.header) }
            var order = 0
            for _ in 0..<repeats {
                for prompt in extraction {
                    let pair = try await runner.pair(prompt, order: order)
                    plainTally.add(pair); order += 1
                    if !json { print(SpeculateReport.row(pair)) }
                }
                for prompt in structured {
                    let pair = try await runner.pair(prompt, order: order)
                    structuredTally.add(pair); order += 1
                    if !json { print(SpeculateReport.row(pair)) }
                }
            }
        } catch {
            printError("speculate: \(error)"); return BenchSchema.exitCode(for: error)
        }
        let report = SpeculateReport(extraction: plainTally, structured: structuredTally, model: (path as NSString).lastPathComponent,
                                     tasks: extraction.count, structuredTasks: structured.count, maxTokens: maxTokens, repeats: repeats,
                                     threads: threads, wallSeconds: EngineSupport.seconds(ContinuousClock.now - start))
        if json { EngineSupport.printJSON(report.object(details: arguments.flag("details"))) } else { print(report.text) }
        return report.passed ? 0 : 1
    }
}
