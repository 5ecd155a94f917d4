import Foundation
import Switchboard

/// `switchboard chat`: an interactive conversation. The history stays in this process, so each turn
/// extends the last one's prompt and the on-device engine reuses its KV cache.
enum ChatCommand: CLICommand {
    static let name = "chat"
    static let summary = "an interactive conversation, streamed, with the provider and privacy level of each answer"
    static let usage = """
        usage: switchboard chat [options]
          --system TEXT           instructions for the model
        \(Runtime.usage)
        in the chat:
          /system TEXT   new instructions (keeps the history)    /schema FILE   answer as JSON of this schema (/schema off)
          /reset         forget the conversation                 /quit          leave (or end of input)
        """

    static func run(_ arguments: CLIArguments) async -> ExitStatus {
        let runtime: Runtime
        do throws(CLIArguments.UsageError) {
            try arguments.check(known: Runtime.options.union(["system"]))
            runtime = try Runtime(arguments)
        } catch {
            printError(error.message); return .usage
        }
        let loaded = await runtime.load(quiet: false)
        guard loaded == .ok else { return loaded }
        var conversation = Conversation(system: arguments.string("system"))
        write("switchboard chat with \(runtime.local.id) · /help for commands\n")
        while true {
            write("\u{1B}[1m> \u{1B}[0m")
            guard let line = readLine() else { write("\n"); return .ok }
            let input = line.trimmingCharacters(in: .whitespaces)
            if input.isEmpty { continue }
            if input.hasPrefix("/") {
                if conversation.command(input) == .quit { return .ok }
                continue
            }
            var request = GenerationRequest(messages: conversation.messages(adding: input), maxTokens: runtime.maxTokens)
            if let schema = conversation.schema { request.output = .jsonSchema(schema) }
            let printer = AnswerPrinter(json: false)
            if let response = await printer.print(runtime.coordinator.streamResponse(to: request)) {
                conversation.record(user: input, assistant: response.content)
            }
        }
    }

    static func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
}

/// The chat's state: instructions, the turns so far, and the schema answers must follow.
struct Conversation {
    enum Outcome { case handled, quit }
    var system: String?
    var turns: [ChatMessage] = []
    var schema: String?

    func messages(adding prompt: String) -> [ChatMessage] {
        (system.map { [ChatMessage(.system, $0)] } ?? []) + turns + [ChatMessage(.user, prompt)]
    }

    mutating func record(user: String, assistant: String) {
        turns.append(ChatMessage(.user, user))
        turns.append(ChatMessage(.assistant, assistant))
    }

    mutating func command(_ input: String) -> Outcome {
        let (name, rest) = input.firstIndex(of: " ").map { (String(input[..<$0]), String(input[$0...]).trimmingCharacters(in: .whitespaces)) }
            ?? (input, "")
        switch name {
        case "/quit", "/exit": return .quit
        case "/reset": turns.removeAll(); ChatCommand.write("(conversation forgotten)\n")
        case "/system":
            system = rest.isEmpty ? nil : rest
            ChatCommand.write(rest.isEmpty ? "(no instructions)\n" : "(instructions set)\n")
        case "/schema":
            if rest.isEmpty || rest == "off" { schema = nil; ChatCommand.write("(plain text answers)\n"); break }
            if case .success(let text) = SchemaFile.read(rest) { schema = text; ChatCommand.write("(answers follow \(rest))\n") }
        default:
            ChatCommand.write("/system TEXT · /schema FILE|off · /reset · /quit\n")
        }
        return .handled
    }
}
