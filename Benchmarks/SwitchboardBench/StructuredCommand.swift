import Foundation
import SwitchboardCore
import SwitchboardInference
import SwitchboardLocal

/// `structured --model PATH [--max-tokens N] [--timing]`: reads JSON lines `{"prompt", "schema"[,
/// "expected"]}` on stdin and prints one line per task: `{"output", "valid", "tokens", "seconds"}`
/// (and `"correct"` when the task has `expected`: every expected member equal in the output). Greedy,
/// the instruct model, the prompt as the local provider builds it (system line, user turn, schema
/// instructions). `--timing` also runs each prompt unconstrained for as many tokens as the constrained
/// answer took (same positions) and ends with one line of decode tokens/s both ways.
enum StructuredCommand: BenchCommand {
    static let name = "structured"
    static let summary = "schema-constrained JSON from stdin tasks: --model PATH [--max-tokens N] [--timing]"

    static let options: [BenchOption]? = [.integer("max-tokens", 1...4096), .flag("timing")] + BenchOption.localModel

    static func run(_ arguments: Arguments) async -> Int32 {
        let path = arguments.string("model") ?? BenchLocalModel.chatPath(arguments)
        let maxTokens = arguments.int("max-tokens") ?? 128
        guard maxTokens >= 1 else { printError("structured: --max-tokens must be positive"); return 64 }
        let model: LanguageModel
        do { model = try LanguageModel.load(from: path) } catch { printError("structured: \(error)"); return 1 }
        guard let template = model.chatTemplate else { printError("structured: \(path) has no chat template; use the instruct model"); return 64 }
        let generator = BatchedGenerator(model: model, capacity: 1, contextLength: 2048, threads: BenchLocalModel.threads(arguments),
                                         reusePrefixes: false)
        let runner = StructuredTaskRunner(model: model, generator: generator, template: template, maxTokens: maxTokens)
        var timing = StructuredTiming()
        var lineNumber = 0
        while let line = readLine() {
            lineNumber += 1
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let task: StructuredTask
            do { task = try StructuredTask(line: line) } catch {
                printError("structured: line \(lineNumber): \(error)")
                return 64
            }
            do {
                let result = try await runner.run(task, constrained: true)
                timing.add(result.summary, constrained: true)
                if arguments.flag("timing") {
                    let plain = try await runner.run(task, constrained: false, tokens: result.summary.completionTokens)
                    timing.add(plain.summary, constrained: false)
                }
                print(result.line(expected: task.expected))
            } catch {
                printError("structured: line \(lineNumber): \(error)")
                return BenchSchema.exitCode(for: error)
            }
        }
        if arguments.flag("timing") { print(timing.line) }
        return 0
    }
}

/// One stdin task.
struct StructuredTask {
    var prompt: String
    var schema: GenerationSchema
    var expected: GeneratedContent?

    init(line: String) throws(UsageError) {
        do { try self.init(checking: line) } catch let error as UsageError { throw error } catch {
            throw UsageError(description: "\(error)")
        }
    }

    /// Reads the line and checks its schema the whole way (`BenchSchema.load`).
    private init(checking line: String) throws {
        // Read with the package's reader: it keeps the schema's property order.
        let object = try GeneratedContent(json: line)
        guard let prompt = object["prompt"]?.stringValue, let schema = object["schema"] else {
            throw StructuredOutputError.invalidSchemaDocument("a task line needs \"prompt\" (a string) and \"schema\" (an object)")
        }
        self.prompt = prompt
        self.schema = try BenchSchema.load(schema.jsonText, source: "the task's schema").get()
        expected = object["expected"].flatMap { $0 == .null ? nil : $0 }
    }
}
