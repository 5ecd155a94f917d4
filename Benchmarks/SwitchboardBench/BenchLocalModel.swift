import Foundation
import SwitchboardCore
import SwitchboardLocal

/// The on-device provider as the bench commands make it: the file from `--model`, else
/// `$SWITCHBOARD_MODEL_PATH`, else the registry's folder.
enum BenchLocalModel {
    static func path(_ arguments: Arguments) -> String {
        if let path = arguments.string("model"), !path.isEmpty { return path }
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_MODEL_PATH"], !path.isEmpty { return path }
        return ModelRegistry.default.path(for: .gemma3_270m)
    }

    static func threads(_ arguments: Arguments) -> Int {
        arguments.int("threads") ?? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    }

    static func makeProvider(path: String, threads: Int) -> LocalModelProvider {
        LocalModelProvider(configuration: .gemma3_270m, modelPath: path,
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
