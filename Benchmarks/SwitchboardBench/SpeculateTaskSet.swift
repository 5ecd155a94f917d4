import Foundation
import SwitchboardCore

/// The extraction set of `speculate` (`Benchmarks/Data/speculate-tasks.json`): notes of 200–400
/// tokens as people write them (meeting notes, intake forms, invoices, itineraries…), each with an
/// instruction whose answer copies names, numbers, dates and phrases from the note, the facts a right
/// answer copies (each verbatim in the note, so the copying is checkable), and most with a JSON schema
/// asking for the same fields. Read with the package's JSON reader, which keeps each schema's
/// property order (the order the constrained decoder writes them in).
struct SpeculateTaskSet {
    struct Task {
        var id: String
        var domain: String
        /// The note's length in SmolLM2 tokens, no BOS (kept in the file so a test can check it
        /// against the tokenizer wherever the model is present).
        var noteTokens: Int
        var note: String
        var instruction: String
        var facts: [String]
        var structured: Structured?

        /// The user turn: the note, then what to do with it (an app pasting a note and asking).
        var prompt: String { note + "\n\n" + instruction }
    }

    struct Structured {
        var instruction: String
        var schema: GenerationSchema
        /// The schema as written in the file (the bench reports and tests it as given).
        var schemaText: String
    }

    var tasks: [Task]

    /// The file's place relative to the repository root; found from the working directory, else from
    /// this source file (a bench binary run from elsewhere on the machine that built it).
    static let defaultPath = "Benchmarks/Data/speculate-tasks.json"

    static func resolve(_ relative: String) -> String {
        if relative.hasPrefix("/") || FileManager.default.fileExists(atPath: relative) { return relative }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(relative).path
    }

    /// Files larger than this are refused before reading (the set is about 64 KB).
    static let maxFileBytes = 8 << 20

    static func load(path: String) throws(UsageError) -> SpeculateTaskSet {
        let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        guard let size else { throw UsageError(description: "speculate: cannot read the task file \(path)") }
        guard size <= maxFileBytes else { throw UsageError(description: "speculate: the task file \(path) is over \(maxFileBytes) bytes") }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw UsageError(description: "speculate: the task file \(path) is not readable UTF-8")
        }
        return try SpeculateTaskSet(json: text)
    }

    init(json text: String) throws(UsageError) {
        let document: GeneratedContent
        do { document = try GeneratedContent(json: text) } catch {
            throw UsageError(description: "speculate: the task file is not JSON: \(error)")
        }
        guard case .array(let items)? = document["tasks"] else {
            throw UsageError(description: "speculate: the task file needs \"tasks\", an array")
        }
        var tasks: [Task] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            let task = try Self.task(item, index: index)
            guard seen.insert(task.id).inserted else { throw UsageError(description: "speculate: task \(index): the id \(task.id) repeats") }
            tasks.append(task)
        }
        self.tasks = tasks
    }

    private static func task(_ item: GeneratedContent, index: Int) throws(UsageError) -> Task {
        func problem(_ text: String) -> UsageError { UsageError(description: "speculate: task \(index): \(text)") }
        guard let id = item["id"]?.stringValue, !id.isEmpty, let domain = item["domain"]?.stringValue,
              let note = item["note"]?.stringValue, !note.isEmpty,
              let instruction = item["instruction"]?.stringValue, !instruction.isEmpty else {
            throw problem("needs \"id\", \"domain\", \"note\" and \"instruction\", each a non-empty string")
        }
        // A checked conversion: the count comes from a file.
        guard let tokens = item["note_tokens"]?.numberValue, tokens.isFinite, let noteTokens = Int(exactly: tokens), noteTokens > 0 else {
            throw problem("\"note_tokens\" must be a positive whole number")
        }
        guard case .array(let factItems)? = item["facts"] else { throw problem("\"facts\" must be an array of strings") }
        let facts = factItems.compactMap(\.stringValue)
        guard facts.count == factItems.count, !facts.isEmpty else { throw problem("\"facts\" must be a non-empty array of strings") }
        var structured: Structured?
        if let entry = item["structured"], entry != .null {
            guard let text = entry["instruction"]?.stringValue, !text.isEmpty, let schema = entry["schema"] else {
                throw problem("\"structured\" needs \"instruction\" (a string) and \"schema\" (an object)")
            }
            let schemaText = schema.jsonText
            switch BenchSchema.load(schemaText, source: "task \(id)") {
            case .success(let loaded): structured = Structured(instruction: text, schema: loaded, schemaText: schemaText)
            case .failure(let error): throw problem(error.description)
            }
        }
        return Task(id: id, domain: domain, noteTokens: noteTokens, note: note, instruction: instruction, facts: facts, structured: structured)
    }

    /// The public structured tasks (`Tests/Fixtures/golden/smollm2/structured_public.json`, the set
    /// `structured` runs): prompt and schema of each case.
    static func publicStructured(path: String) throws(UsageError) -> [(id: String, prompt: String, schema: GenerationSchema)] {
        guard let data = FileManager.default.contents(atPath: path), data.count <= maxFileBytes,
              let text = String(data: data, encoding: .utf8) else {
            throw UsageError(description: "speculate: cannot read the public structured tasks at \(path)")
        }
        let document: GeneratedContent
        do { document = try GeneratedContent(json: text) } catch {
            throw UsageError(description: "speculate: \(path) is not JSON: \(error)")
        }
        guard case .array(let cases)? = document["cases"] else { throw UsageError(description: "speculate: \(path) needs \"cases\"") }
        var tasks: [(id: String, prompt: String, schema: GenerationSchema)] = []
        for (index, item) in cases.enumerated() {
            guard let prompt = item["prompt"]?.stringValue, let schema = item["schema"] else {
                throw UsageError(description: "speculate: \(path) case \(index) needs \"prompt\" and \"schema\"")
            }
            switch BenchSchema.load(schema.jsonText, source: "\(path) case \(index)") {
            case .success(let loaded): tasks.append((id: "public-\(index + 1)", prompt: prompt, schema: loaded))
            case .failure(let error): throw error
            }
        }
        return tasks
    }

    static let defaultPublicStructuredPath = "Tests/Fixtures/golden/smollm2/structured_public.json"
}
