import Foundation
import Switchboard

/// `switchboard ask PROMPT`: one answer, streamed.
enum AskCommand: CLICommand {
    static let name = "ask"
    static let summary = "one question, answered as it streams (on device unless a remote is named and allowed)"
    static let usage = """
        usage: switchboard ask [options] PROMPT...     (PROMPT may also come on stdin; `--` before a prompt starting with -)
          --system TEXT           instructions for the model
          --schema FILE           answer as JSON matching this JSON Schema
          --json                  print one JSON object: text, provider, privacy, completion_tokens, cached
        \(Runtime.usage)
        """

    static func run(_ arguments: CLIArguments) async -> ExitStatus {
        let runtime: Runtime
        var request: GenerationRequest
        do throws(CLIArguments.UsageError) {
            try arguments.check(known: Runtime.options.union(["system", "schema", "json"]))
            runtime = try Runtime(arguments)
            var prompt = arguments.positional.joined(separator: " ")
            if prompt.isEmpty, let stdin = try? FileHandle.standardInput.readToEnd() {
                prompt = String(decoding: stdin, as: UTF8.self)
            }
            prompt = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !prompt.isEmpty else { throw CLIArguments.UsageError(message: "ask needs a prompt") }
            var messages: [ChatMessage] = []
            if let system = arguments.string("system") { messages.append(ChatMessage(.system, system)) }
            messages.append(ChatMessage(.user, prompt))
            request = GenerationRequest(messages: messages, maxTokens: runtime.maxTokens)
            if let path = arguments.string("schema") {
                switch SchemaFile.read(path) {
                case .success(let schema): request.output = .jsonSchema(schema)
                case .failure(let status): return status
                }
            }
        } catch {
            printError(error.message); return .usage
        }
        let json = arguments.flag("json")
        let loaded = await runtime.load(quiet: json)
        guard loaded == .ok else { return loaded }
        let printer = AnswerPrinter(json: json)
        return await printer.print(runtime.coordinator.streamResponse(to: request)) == nil ? .failed : .ok
    }
}

/// A JSON Schema file, checked before any request: missing → 66, not a schema the runtime can use → 64.
enum SchemaFile {
    static func read(_ path: String) -> Result<String, ExitStatus> {
        guard let data = FileManager.default.contents(atPath: path) else {
            printError("no schema file at \(path)"); return .failure(.noInput)
        }
        let text = String(decoding: data, as: UTF8.self)
        do { _ = try GenerationSchema(jsonSchema: text) } catch {
            printError("\(path) is not a schema Switchboard can generate from: \(error)"); return .failure(.usage)
        }
        return .success(text)
    }
}
