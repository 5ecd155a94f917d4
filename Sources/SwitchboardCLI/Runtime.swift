import Foundation
import Switchboard
import SwitchboardLocal
import SwitchboardRemote

/// The runtime a command talks to: the on-device chat model, plus an OpenAI-compatible server when
/// `--openai-base-url` names one (its key from the environment variable `--openai-key-env` names).
struct Runtime {
    static let options: Set<String> = ["model", "threads", "openai-base-url", "openai-model", "openai-key-env", "max-tokens"]
    static let usage = """
          --model ID              on-device model: smollm2 (default, chat) or gemma (a base model that continues text)
          --threads N             engine threads (default 2)
          --max-tokens N          longest answer (default 256)
          --openai-base-url URL   also route public requests to this OpenAI-compatible server
          --openai-model NAME     the server's model (default: gpt-4o-mini)
          --openai-key-env VAR    environment variable holding its API key
        """

    let coordinator: Coordinator
    let local: LocalModelProvider
    let maxTokens: Int

    init(_ arguments: CLIArguments) throws(CLIArguments.UsageError) {
        let configuration: ModelConfiguration
        switch arguments.string("model") ?? "smollm2" {
        case "smollm2", ModelConfiguration.smolLM2_135mInstruct.id: configuration = .smolLM2_135mInstruct
        case "gemma", ModelConfiguration.gemma3_270m.id: configuration = .gemma3_270m
        case let other: throw .init(message: "unknown --model '\(other)' (known: smollm2, gemma; see `switchboard models`)")
        }
        let threads = try arguments.int("threads", in: 1...64, default: 2)
        maxTokens = try arguments.int("max-tokens", in: 1...32_768, default: 256)
        local = LocalModelProvider(configuration: configuration, loader: LocalEngineLoader(threads: threads))
        var providers: [any Provider] = [local]
        if let base = arguments.string("openai-base-url") {
            guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw .init(message: "--openai-base-url must be an http(s) URL, got '\(base)'")
            }
            var credentials = APICredentials.none
            if let variable = arguments.string("openai-key-env") {
                guard let secret = ProcessInfo.processInfo.environment[variable], let key = APIKey(secret) else {
                    throw .init(message: "the environment variable \(variable) holds no API key")
                }
                credentials = .key(key)
            }
            providers.append(RemoteProvider.openAI(model: arguments.string("openai-model") ?? "gpt-4o-mini", baseURL: url,
                                                   credentials: credentials))
        }
        coordinator = Coordinator(providers: providers)
    }

    /// Loads the model with a progress bar on stderr; says why and returns the exit status when it cannot.
    func load(quiet: Bool) async -> ExitStatus {
        var failed = false
        for await progress in await local.load() {
            if case .failed = progress.phase { failed = true; break }
            if !quiet { ProgressBar.draw(progress.fraction, label: "loading \(local.id)") }
        }
        if !quiet { ProgressBar.finish() }
        guard failed else { return .ok }
        do { try await local.loadAndWait() } catch {
            printError("\(error)")
            switch error {
            case .fileNotFound: return .noInput
            case .checksumMismatch, .architectureMismatch, .unreadable: return .dataError
            default: return .failed
            }
        }
        return .ok
    }
}

/// Prints one streamed answer: its text as it grows, then the provider and privacy level on their own line.
struct AnswerPrinter {
    var json: Bool

    /// Returns the finished response, or nil after printing why the request failed.
    func print(_ stream: ResponseStream<String>) async -> Response<String>? {
        // Routing is reported beside the text, never inside it: a resume is noted as it happens.
        let notes = Task { [json] in
            for await event in stream.events {
                if case .resumed(let from, let to, _, _) = event, !json {
                    FileHandle.standardError.write(Data(" [resumed: \(from) → \(to)] ".utf8))
                }
            }
        }
        defer { notes.cancel() }
        var printed = ""
        do {
            for try await snapshot in stream where !json {
                // Snapshots hold the whole text so far; a provider that starts over shows a shorter one.
                if snapshot.content.hasPrefix(printed) {
                    write(String(snapshot.content.dropFirst(printed.count)))
                } else {
                    write("\n" + snapshot.content)
                }
                printed = snapshot.content
            }
            let response = try await stream.collect()
            if json {
                let object: [String: Any] = ["text": response.content, "provider": response.providerID.rawValue,
                                             "privacy": response.privacy.description,
                                             "completion_tokens": response.usage.completionTokens, "cached": response.cached]
                let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
                write(String(decoding: data, as: UTF8.self) + "\n")
            } else {
                write("\n\u{1B}[2m[\(response.providerID) · \(response.privacy) · \(response.usage.completionTokens) tokens"
                      + (response.cached ? " · cached" : "") + "]\u{1B}[0m\n")
            }
            return response
        } catch {
            if !json { write("\n") }
            printError("the request failed: \(error)")
            return nil
        }
    }

    private func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
}

enum ProgressBar {
    static func draw(_ fraction: Double, label: String) {
        let width = 30
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(Int(fraction * 100)) %".utf8))
    }
    static func finish() { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
}
