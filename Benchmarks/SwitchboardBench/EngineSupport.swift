import Foundation
import SwitchboardInference

/// Shared pieces of the engine subcommands (score, generate, engine).
enum EngineSupport {
    static func modelPath(_ arguments: Arguments) -> String {
        if let path = arguments.string("model") { return path }
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_MODEL_PATH"], !path.isEmpty { return path }
        return NSHomeDirectory() + "/.cache/switchboard/models/gemma-3-270m-q4_k_m.gguf"
    }

    /// `--reference avx512|avx2` (default: this CPU's build); nil for an unknown name.
    static func reference(_ arguments: Arguments) -> ReferenceBuild? {
        guard let name = arguments.string("reference") else { return .host }
        return ReferenceBuild(rawValue: name)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// One JSON object on stdout.
    static func printJSON(_ object: [String: Any]) {
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
           let text = String(data: data, encoding: .utf8) {
            print(text)
        }
    }

    /// Peak resident set size in MB (VmHWM from /proc/self/status; getrusage elsewhere).
    static func peakRSSMegabytes() -> Double {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kb = Double(line.split(separator: " ").dropFirst().first ?? "") {
            return kb / 1024
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }

    /// The processor's name and the vector extensions the engine's kernels care about, from Linux
    /// `/proc/cpuinfo` ("unknown" elsewhere): a figure is only comparable on the same instruction set.
    static func cpuDescription() -> String {
        let name = TokenizeBench.cpuName()
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return name }
        let flags = Set(line.split(separator: " ").map(String.init))
        let vector = vectorFlags.filter(flags.contains)
        return vector.isEmpty ? name : name + " (" + vector.joined(separator: " ") + ")"
    }

    static let vectorFlags = ["avx2", "fma", "f16c", "avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16",
                              "avx512vbmi", "avx_vnni", "asimd", "sve"]
}
