import Foundation
import SwitchboardCore
import SwitchboardLocal

/// The on-device providers as the bench commands make them. The base model (Gemma 3): the file from
/// `--model`, else `$SWITCHBOARD_MODEL_PATH`, else the registry's folder. The chat model (SmolLM2):
/// `--chat-model`, else `$SWITCHBOARD_CHAT_MODEL_PATH`, else the registry's folder.
enum BenchLocalModel {
    static func path(_ arguments: Arguments) -> String {
        path(arguments, option: "model", environment: "SWITCHBOARD_MODEL_PATH", default: .gemma3_270m)
    }

    static func chatPath(_ arguments: Arguments) -> String {
        path(arguments, option: "chat-model", environment: "SWITCHBOARD_CHAT_MODEL_PATH", default: .smolLM2_135mInstruct)
    }

    private static func path(_ arguments: Arguments, option: String, environment: String, default model: ModelConfiguration) -> String {
        if let path = arguments.string(option), !path.isEmpty { return path }
        if let path = ProcessInfo.processInfo.environment[environment], !path.isEmpty { return path }
        return ModelRegistry.default.path(for: model)
    }

    static func threads(_ arguments: Arguments) -> Int {
        arguments.int("threads") ?? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    }

    static func makeProvider(_ configuration: ModelConfiguration = .gemma3_270m, path: String, threads: Int) -> LocalModelProvider {
        LocalModelProvider(configuration: configuration, modelPath: path,
                           loader: LocalEngineLoader(threads: threads), idleTimeout: nil)
    }

    /// Loads with a progress bar on stderr; on failure prints why and returns false.
    static func load(_ provider: LocalModelProvider, quiet: Bool = false) async -> Bool {
        var bar = BenchProgressBar(title: "model")
        for await progress in await provider.load() where !quiet {
            switch progress.phase {
            case .verifying: bar.update(progress.fraction, label: "verifying")
            case .loading: bar.update(progress.fraction, label: "loading")
            case .ready, .failed: break
            }
        }
        do {
            try await provider.loadAndWait()
        } catch {
            if !quiet { bar.finish("failed") }
            printError("\(error)")
            return false
        }
        if !quiet {
            let seconds = await provider.statistics.lastLoadDuration?.seconds ?? 0
            bar.finish("\(provider.configuration.id) ready in " + String(format: "%.2f s", seconds) + " (sha256 and architecture verified)")
        }
        return true
    }
}
