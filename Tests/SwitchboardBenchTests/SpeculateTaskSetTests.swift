import Foundation
import Testing
import SwitchboardCore
import SwitchboardInference
@testable import SwitchboardBench

/// The extraction set `switchboard-bench speculate` reads (`Benchmarks/Data/speculate-tasks.json`):
/// enough tasks, notes of the length issue 28 asks for, answers that copy the note, schemas the
/// on-device decoder compiles; and a file that is wrong is a usage error, never a trap.
@Suite("switchboard-bench speculate task set")
struct SpeculateTaskSetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let set: Result<SpeculateTaskSet, UsageError> = Result { () throws(UsageError) in
        try SpeculateTaskSet.load(path: root.appendingPathComponent(SpeculateTaskSet.defaultPath).path)
    }

    @Test func theFileParsesWithEnoughTasks() throws {
        let tasks = try Self.set.get().tasks
        #expect(tasks.count >= 20)
        #expect(tasks.filter { $0.structured != nil }.count >= 12)
        // Varied: no domain written twice.
        #expect(Set(tasks.map(\.domain)).count == tasks.count)
    }

    /// The recorded counts are within 200–400 tokens, and each is plausible for its text (SmolLM2
    /// spells digits one token each: 1.8–4.5 bytes a token on these notes), so a note edited without
    /// its count fails here; the exact count is checked against the tokenizer below.
    @Test func everyNoteIsTwoToFourHundredTokens() throws {
        for task in try Self.set.get().tasks {
            #expect((200...400).contains(task.noteTokens), "\(task.id): \(task.noteTokens) tokens")
            let ratio = Double(task.note.utf8.count) / Double(task.noteTokens)
            #expect((1.8...4.5).contains(ratio), "\(task.id): \(task.note.utf8.count) bytes for \(task.noteTokens) tokens")
        }
    }

    @Test(.enabled(if: SmolLM2Tokenizer.isAvailable, "SmolLM2 model file missing: run Scripts/fetch-model.sh smollm2"))
    func theRecordedCountsAreTheTokenizers() throws {
        let tokenizer = try SmolLM2Tokenizer.load()
        for task in try Self.set.get().tasks {
            #expect(tokenizer.encode(task.note, addBOS: false, parseSpecial: false).count == task.noteTokens, "\(task.id)")
        }
    }

    /// The property the bench measures: a right answer copies names, numbers and phrases. Each task
    /// lists what it copies, every one verbatim in its note, numbers among them.
    @Test func everyFactIsCopiedFromItsNote() throws {
        for task in try Self.set.get().tasks {
            #expect(task.facts.count >= 6, "\(task.id)")
            for fact in task.facts { #expect(task.note.contains(fact), "\(task.id): \(fact)") }
            #expect(task.facts.contains { $0.contains(where: \.isNumber) }, "\(task.id) copies no number")
            #expect(task.facts.contains { !$0.contains(where: \.isNumber) }, "\(task.id) copies no name or phrase")
            #expect(!task.note.contains(task.instruction), "\(task.id)")
        }
    }

    /// Every schema compiles for the decoder and asks for a list of records (the extraction shape).
    @Test func everySchemaCompilesAndAsksForRecords() throws {
        for task in try Self.set.get().tasks {
            let structured = try #require(task.structured, "\(task.id) has no schema")
            #expect(throws: Never.self) { _ = try structured.schema.compiledConstraint() }
            let document = try GeneratedContent(json: structured.schemaText)
            #expect(Self.hasArrayOfObjects(document), "\(task.id)")
        }
    }

    static func hasArrayOfObjects(_ schema: GeneratedContent) -> Bool {
        if schema["type"]?.stringValue == "array", schema["items"]?["type"]?.stringValue == "object" { return true }
        guard case .object(let properties)? = schema["properties"] else { return false }
        return properties.contains { hasArrayOfObjects($0.value) }
    }

    @Test func thePublicStructuredTasksLoad() throws {
        let path = Self.root.appendingPathComponent(SpeculateTaskSet.defaultPublicStructuredPath).path
        #expect(try SpeculateTaskSet.publicStructured(path: path).count == 12)
    }

    static func line(_ members: String) -> String {
        #"{"tasks":[{"id":"a","domain":"d","note":"Call Ann at 555-0100.","instruction":"Who?","facts":["Ann"]"# + members + "}]}"
    }

    @Test(arguments: [
        "not json", #"{"tasks":{}}"#, line(""), line(#","note_tokens":1e300"#), line(#","note_tokens":-3"#), line(#","note_tokens":2.5"#),
        line(#","note_tokens":9,"structured":{"instruction":"x","schema":{"type":"integer","minimum":10,"maximum":1}}"#),
        line(#","note_tokens":9,"structured":{"schema":{"type":"string"}}"#),
        #"{"tasks":[{"id":"a","domain":"d","note":"n","instruction":"i","facts":[],"note_tokens":9}]}"#,
        #"{"tasks":[{"id":"a","domain":"d","note":"n","instruction":"i","facts":[3],"note_tokens":9}]}"#,
    ])
    func aBadTaskFileIsAUsageError(_ text: String) {
        #expect(throws: UsageError.self) { _ = try SpeculateTaskSet(json: text) }
    }

    @Test func aRepeatedIDIsAUsageError() throws {
        let task = #"{"id":"a","domain":"d","note":"n","instruction":"i","facts":["n"],"note_tokens":9}"#
        #expect(throws: UsageError.self) { _ = try SpeculateTaskSet(json: #"{"tasks":["# + task + "," + task + "]}") }
        #expect(try SpeculateTaskSet(json: #"{"tasks":["# + task + "]}").tasks.count == 1)
    }

    @Test func theCommandRefusesBadInputBeforeAnyModelLoads() async throws {
        #expect(await BenchCommandLine.run(["speculate", "--tasks", "0"]) == 64)
        #expect(await BenchCommandLine.run(["speculate", "--max-tokens", "99999"]) == 64)
        #expect(await BenchCommandLine.run(["speculate", "--data", "/nonexistent/tasks.json"]) == 64)
        let data = Self.root.appendingPathComponent(SpeculateTaskSet.defaultPath).path
        #expect(await BenchCommandLine.run(["speculate", "--data", data, "--model", "/nonexistent.gguf"]) == 1)
    }
}

/// The tallies: rates over the whole set, sums of passes, and any difference or invalid output shows.
@Suite("switchboard-bench speculate tallies")
struct SpeculateTallyTests {
    static func sample(_ ids: [Int32], seconds: Double, passes: Int, accepted: Int = 0) -> SpeculateSample {
        SpeculateSample(ids: ids, text: "", decodeSeconds: seconds, decodePasses: passes, acceptedDraftTokens: accepted)
    }

    static func pair(_ id: String, plain: SpeculateSample, speculative: SpeculateSample, valid: Bool? = nil) -> SpeculatePair {
        SpeculatePair(id: id, plain: plain, speculative: speculative, plainValid: valid, speculativeValid: valid, factsCopied: 1, factCount: 2)
    }

    @Test func ratesAreTotalTokensOverTotalTime() {
        var tally = SpeculateTally()
        // Speculative: 10 tokens after the first in 0.5 s and 1 in 0.1 s are 11 / 0.6 = 18.3 tok/s over
        // the set, where a mean of the two rates (20 and 10) would say 15.
        tally.add(Self.pair("a", plain: Self.sample(Array(0...10), seconds: 1, passes: 10),
                            speculative: Self.sample(Array(0...10), seconds: 0.5, passes: 4, accepted: 6)))
        tally.add(Self.pair("b", plain: Self.sample([1, 2], seconds: 0.1, passes: 1), speculative: Self.sample([1, 2], seconds: 0.1, passes: 1)))
        #expect(abs(tally.plainRate - 11 / 1.1) < 1e-9)
        #expect(abs(tally.speculativeRate - 11 / 0.6) < 1e-9)
        #expect(abs(tally.speedup - 1.1 / 0.6) < 1e-9)
        #expect(tally.plainPasses == 11 && tally.speculativePasses == 5 && tally.acceptedDraftTokens == 6)
        #expect(tally.generatedTokens == 13)
        #expect(tally.identical && tally.valid)
        #expect(tally.factsCopied == 0.5)
    }

    @Test func oneDifferentTokenMakesTheSetNotIdentical() {
        var tally = SpeculateTally()
        tally.add(Self.pair("a", plain: Self.sample([1, 2, 3], seconds: 1, passes: 2), speculative: Self.sample([1, 2, 3], seconds: 1, passes: 1)))
        #expect(tally.identical)
        tally.add(Self.pair("b", plain: Self.sample([1, 2, 3], seconds: 1, passes: 2), speculative: Self.sample([1, 2, 4], seconds: 1, passes: 1)))
        #expect(!tally.identical)
    }

    @Test func oneInvalidOutputMakesTheSetInvalid() {
        var tally = SpeculateTally()
        tally.add(Self.pair("a", plain: Self.sample([1], seconds: 0, passes: 0), speculative: Self.sample([1], seconds: 0, passes: 0), valid: true))
        #expect(tally.valid)
        #expect(tally.plainRate == 0, "no decode time: no rate, no division by zero")
        var broken = Self.pair("b", plain: Self.sample([1], seconds: 0, passes: 0), speculative: Self.sample([1], seconds: 0, passes: 0), valid: true)
        broken.speculativeValid = false
        tally.add(broken)
        #expect(!tally.valid)
    }

    @Test func theReportCarriesTheIssuesKeys() {
        var tally = SpeculateTally()
        tally.add(Self.pair("a", plain: Self.sample([1, 2, 3], seconds: 1, passes: 2), speculative: Self.sample([1, 2, 3], seconds: 0.5, passes: 1)))
        let report = SpeculateReport(extraction: tally, structured: tally, model: "m.gguf", tasks: 1, structuredTasks: 1, maxTokens: 8,
                                     repeats: 1, threads: 1, wallSeconds: 1)
        let object = report.object(details: true)
        for key in ["plain_tokens_per_second", "speculative_tokens_per_second", "speedup", "forward_passes_plain", "forward_passes_speculative",
                    "accepted_draft_tokens", "identical", "structured_speedup", "structured_identical", "structured_valid", "tasks",
                    "structured_tasks", "model", "cpu", "per_task"] {
            #expect(object[key] != nil, "\(key)")
        }
        #expect(object["speedup"] as? Double == 2)
        #expect(report.passed)
    }
}

/// SmolLM2's tokenizer from the model file (`Scripts/fetch-model.sh smollm2`, or
/// `SWITCHBOARD_CHAT_MODEL_PATH`); under CI the file must be there.
enum SmolLM2Tokenizer {
    static var path: String {
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_CHAT_MODEL_PATH"], !path.isEmpty { return path }
        return NSHomeDirectory() + "/.cache/switchboard/models/SmolLM2-135M-Instruct.Q4_1.gguf"
    }

    static var isAvailable: Bool { ProcessInfo.processInfo.environment["CI"] != nil || FileManager.default.fileExists(atPath: path) }

    static func load() throws -> Tokenizer { try Tokenizer(gguf: try GGUFFile(contentsOf: path)) }
}
