import Foundation
import Testing
import SwitchboardCore
import SwitchboardInference
@testable import SwitchboardBench

/// A schema the runtime or the on-device decoder cannot represent is the user's input to fix: a
/// typed usage error and exit 64 in `ask` and `structured`, never a trap or a generic failure.
@Suite("switchboard-bench schema errors exit 64")
struct SchemaExitTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/schemas/\(name)").path
    }

    @Test(arguments: ["unsupported-keyword.json", "contradictory-bounds.json"])
    func askRefusesTheSchemaBeforeAnyModelLoads(_ name: String) async {
        #expect(await BenchCommandLine.run(["ask", "--schema", Self.fixture(name), "--chat-model", "/nonexistent.gguf", "hi"]) == 64)
    }

    @Test func askWithAMissingSchemaFileIsAUsageError() async {
        #expect(await BenchCommandLine.run(["ask", "--schema", Self.fixture("absent.json"), "hi"]) == 64)
    }

    @Test func aUsableSchemaLoadsAndCompiles() throws {
        let text = try String(contentsOfFile: Self.fixture("city.json"), encoding: .utf8)
        #expect((try? BenchSchema.load(text, source: "city").get()) != nil)
    }

    /// `$ref`s compile with the definitions they point to (a recursive Pydantic model, zod's `#`).
    @Test(arguments: ["pydantic-Category.json", "pydantic-Person.json", "zod-Folder.json", "zod-Order.json"])
    func aSchemaWithReferencesLoadsAndCompiles(_ name: String) throws {
        let text = try String(contentsOfFile: Self.fixture(name), encoding: .utf8)
        #expect(throws: Never.self) { try BenchSchema.load(text, source: name).get() }
    }

    @Test func aStructuredTaskWithABadSchemaIsAUsageError() {
        #expect(throws: UsageError.self) {
            _ = try StructuredTask(line: #"{"prompt":"x","schema":{"type":"integer","minimum":10,"maximum":1}}"#)
        }
        #expect(throws: UsageError.self) { _ = try StructuredTask(line: #"{"prompt":"x"}"#) }
        #expect(throws: UsageError.self) { _ = try StructuredTask(line: "not json") }
        #expect((try? StructuredTask(line: #"{"prompt":"x","schema":{"type":"string"}}"#)) != nil)
    }

    @Test func errorsMapToExitCodes() {
        #expect(BenchSchema.exitCode(for: UsageError(description: "x")) == 64)
        #expect(BenchSchema.exitCode(for: StructuredOutputError.unsupportedSchema(path: "#", reason: "x")) == 64)
        #expect(BenchSchema.exitCode(for: StructuredOutputError.unsatisfiableSchema(path: "#", reason: "x")) == 64)
        #expect(BenchSchema.exitCode(for: ConstraintError.unsupportedGrammar("too many states")) == 64)
        #expect(BenchSchema.exitCode(for: InferenceError.constraint(.unsupportedGrammar("x"))) == 64)
        #expect(BenchSchema.exitCode(for: InferenceError.constraint(.budgetTooSmall(needed: 9, budget: 2))) == 64)
        #expect(BenchSchema.exitCode(for: StructuredOutputError.schemaMismatch(path: "#", reason: "x")) == 1)
        #expect(BenchSchema.exitCode(for: ProviderError.timeout) == 1)
        #expect(BenchSchema.exitCode(for: InferenceError.constraint(.noAllowedToken("x"))) == 1)
    }

    /// Every number a subcommand reads from its arguments is declared with a range of the same kind,
    /// so it is checked before the command runs: the class of "a CLI number used unchecked" is closed
    /// for code added later too.
    @Test func everyNumberReadFromTheCommandLineIsDeclaredWithARange() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/SwitchboardBench")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var declared: [String: Set<String>] = [:]
        for command in benchCommands {
            for option in command.options ?? [] {
                let kind = switch option.kind {
                case .integer: "int"
                case .number: "double"
                case .unsigned: "uint64"
                case .flag, .text: "text"
                }
                declared[option.name, default: []].insert(kind)
            }
        }
        let pattern = try NSRegularExpression(pattern: #"arguments\.(int|double|uint64)\("([a-z0-9-]+)"\)"#)
        var reads = 0
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let kindRange = Range(match.range(at: 1), in: text), let nameRange = Range(match.range(at: 2), in: text) else { continue }
                let kind = String(text[kindRange]), name = String(text[nameRange])
                reads += 1
                #expect(declared[name]?.contains(kind) == true, "\(file) reads --\(name) as \(kind) without declaring it so")
            }
        }
        #expect(reads > 30)
    }
}
