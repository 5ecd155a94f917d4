import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardLocal

/// `ask`: one question through the whole runtime, streamed to the terminal, answered by the on-device
/// instruct model (SmolLM2; `--chat-model PATH`) with the system line `--system TEXT` (default: a
/// brief, accurate assistant; the model's own default line makes it ramble). `--complete` sends the
/// prompt as text to continue to the base model instead (Gemma 3; `--model PATH`).
/// `--openai-base-url URL --openai-model NAME [--openai-key-env VAR]` adds an OpenAI-compatible remote
/// provider (private requests still never leave the device). `--schema FILE` asks for JSON following
/// the JSON Schema in FILE (`text` is then that JSON; served on device by constrained decoding).
enum AskCommand: BenchCommand {
    static let name = "ask"
    static let summary = "one question through the runtime: --prompt TEXT or TEXT [--system TEXT] [--complete] [--schema FILE] [--max-tokens N] [--json]"
    static let defaultSystem = "You are a helpful assistant. Answer briefly and accurately."
    static let options: [BenchOption]? = [
        .text("prompt"), .text("system"), .flag("complete"), .text("schema"), .flag("json"), .integer("max-tokens", 1...1_000_000),
        .number("temperature", 0...10), .seed(),
    ] + BenchOption.localModel + RemoteOptions.options

    struct Answer: Encodable {
        struct Usage: Encodable {
            var promptTokens: Int
            var completionTokens: Int
            enum CodingKeys: String, CodingKey { case promptTokens = "prompt_tokens", completionTokens = "completion_tokens" }
        }
        var provider: String
        var text: String
        var privacy: String
        var fallbackUsed: Bool
        var usage: Usage
        enum CodingKeys: String, CodingKey { case provider, text, privacy, usage, fallbackUsed = "fallback_used" }
    }

    static func run(_ arguments: Arguments) async -> Int32 {
        let prompt: String
        switch Self.prompt(arguments) {
        case .success(let text): prompt = text
        case .failure(let error): printError(error.description); return 64
        }
        let json = arguments.flag("json")
        var output = OutputFormat.text
        if let file = arguments.string("schema") {
            let text: String
            do { text = try String(contentsOfFile: file, encoding: .utf8) } catch { printError("--schema \(file): \(error)"); return 64 }
            switch BenchSchema.load(text, source: "--schema \(file)") {
            case .success(let schema): output = .schema(schema)
            case .failure(let error): printError(error.description); return 64
            }
        }
        let maxTokens = arguments.int("max-tokens") ?? (output.isStructured ? 128 : 48)
        let remote: [any Provider]
        switch askRemoteProviders(arguments) {
        case .success(let providers): remote = providers
        case .failure(let message): printError(message); return 64
        }

        let complete = arguments.flag("complete")
        let threads = BenchLocalModel.threads(arguments)
        let local = complete
            ? BenchLocalModel.makeProvider(path: BenchLocalModel.path(arguments), threads: threads)
            : BenchLocalModel.makeProvider(.smolLM2_135mInstruct, path: BenchLocalModel.chatPath(arguments), threads: threads)
        guard await BenchLocalModel.load(local, quiet: json) else { return 1 }
        let coordinator = Coordinator(providers: [local] + remote)
        // A server named on the command line is where the user wants public prompts to go: prefer it.
        // Preference never overrides privacy: personal and sensitive prompts stay on the device.
        let system = arguments.string("system") ?? defaultSystem
        let request = GenerationRequest(prompt: prompt, kind: complete ? .completion : .chat,
                                        messages: complete || system.isEmpty ? [] : [ChatMessage(.system, system)],
                                        output: output, maxTokens: maxTokens,
                                        sampling: SamplingOptions(temperature: arguments.double("temperature") ?? 0,
                                                                  seed: arguments.uint64("seed")),
                                        preferredProviders: remote.map(\.id))
        let stream = coordinator.streamResponse(to: request)
        // Routing goes to stderr as it happens, beside the text, never inside it.
        let notes = Task {
            for await event in stream.events where !json {
                switch event {
                case .fallback(let from, let to, let reason):
                    FileHandle.standardError.write(Data(TerminalText.escaped("\n[\(from) failed (\(reason)); falling back to \(to)]\n").utf8))
                case .resumed(let from, let to, let reason, let carried):
                    let note = "\n[\(from) failed (\(reason)); \(to) \(Self.describe(carried))]\n"
                    FileHandle.standardError.write(Data(TerminalText.escaped(note).utf8))
                default: break
                }
            }
        }
        defer { notes.cancel() }
        let response: Response<String>
        do {
            var shown = ""
            for try await snapshot in stream where !json {
                // Each snapshot is the whole text so far: print what is new (all of it after a restart).
                // Remote text cannot drive the terminal: controls other than newline and tab are shown escaped.
                let piece = snapshot.content.hasPrefix(shown) ? String(snapshot.content.dropFirst(shown.count)) : "\n" + snapshot.content
                FileHandle.standardOutput.write(Data(TerminalText.escaped(piece).utf8))
                shown = snapshot.content
            }
            response = try await stream.collect()
        } catch {
            if !json { FileHandle.standardOutput.write(Data("\n".utf8)) }
            printError(TerminalText.escaped("\(error)"))
            return 1
        }
        if json {
            let answer = Answer(provider: response.providerID.rawValue, text: response.content,
                                privacy: response.privacy.description, fallbackUsed: response.fallbackUsed,
                                usage: .init(promptTokens: response.usage.promptTokens,
                                             completionTokens: response.usage.completionTokens))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(answer) else { printError("cannot encode the answer"); return 1 }
            print(String(decoding: data, as: UTF8.self))
        } else {
            // stdout is unbuffered here (tokens were written through FileHandle): keep the newline in order.
            FileHandle.standardOutput.write(Data("\n".utf8))
            var summary = "[\(response.providerID) · privacy \(response.privacy) · \(response.usage.completionTokens) tokens"
            if let ttft = response.timings.timeToFirstToken { summary += String(format: " · first token %.0f ms", ttft.seconds * 1000) }
            summary += String(format: " · total %.2f s", response.timings.total.seconds)
            if response.fallbackUsed { summary += " · fallback from \(response.fallbackFrom?.rawValue ?? "?")" }
            FileHandle.standardError.write(Data((summary + "]\n").utf8))
        }
        return 0
    }

    /// What a resume carried, for the terminal.
    static func describe(_ carried: CarriedText) -> String {
        switch carried {
        case .whole: "continues the answer"
        case .trimmed(let kept, let dropped): "continues from the answer's last \(kept) bytes (\(dropped) did not fit its context)"
        case .restarted(let dropped): "starts the answer over (\(dropped) bytes did not fit its context); the text above is dropped"
        }
    }

    /// The prompt: `--prompt TEXT` (or `--prompt=TEXT`), or the positional text (`ask what is 2+2`,
    /// `ask --json -- "-----BEGIN …"`), not both.
    static func prompt(_ arguments: Arguments) -> Result<String, UsageError> {
        switch (arguments.string("prompt"), arguments.positionalText) {
        case (let prompt?, nil) where !prompt.isEmpty, (nil, let prompt?) where !prompt.isEmpty: return .success(prompt)
        case (.some, .some): return .failure(UsageError(description: "ask takes the prompt once: --prompt TEXT or text after the options, not both"))
        default: return .failure(UsageError(description: "ask needs a prompt: --prompt TEXT, or the text after the options (after -- if it starts with '-')"))
        }
    }
}
