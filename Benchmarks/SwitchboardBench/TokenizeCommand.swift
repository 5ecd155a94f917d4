import Foundation
import SwitchboardInference

/// `switchboard-bench tokenize --model PATH [--special] [--timing]`: tokenizes all of stdin with the
/// model's vocabulary and prints the ids (BOS included) as a JSON array. `--timing` reports load and
/// encode times on stderr. `--bench` measures encode speed instead (see `TokenizeBench`).
struct TokenizeCommand: BenchCommand {
    static let name = "tokenize"
    static let summary = "tokenize stdin with the model vocabulary; prints a JSON array of ids"
    static let options: [BenchOption]? = [.text("model"), .flag("special"), .flag("timing"), .flag("bench"), .text("input"),
                                          .integer("kb", 1...1_048_576), .integer("iterations", 1...10_000)]

    enum Failure: Error, CustomStringConvertible {
        case invalidUTF8(offset: Int)

        var description: String {
            switch self {
            case .invalidUTF8(let offset): "stdin is not valid UTF-8 (first bad byte near offset \(offset))"
            }
        }
    }

    static func defaultModelPath() -> String {
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_MODEL_PATH"], !path.isEmpty { return path }
        return NSHomeDirectory() + "/.cache/switchboard/models/gemma-3-270m-q4_k_m.gguf"
    }

    static func run(_ arguments: Arguments) async -> Int32 {
        let path = arguments.string("model") ?? defaultModelPath()
        do {
            if arguments.flag("bench") { return try TokenizeBench.run(arguments, modelPath: path) }
            let input = try readStdin()
            let clock = ContinuousClock()
            let start = clock.now
            let file = try GGUFFile(contentsOf: path)
            let mapped = clock.now
            let tokenizer = try Tokenizer(gguf: file)
            let loaded = clock.now
            let ids = tokenizer.encode(input, parseSpecial: arguments.flag("special"))
            let encoded = clock.now
            print("[" + ids.map(String.init).joined(separator: ",") + "]")
            if arguments.flag("timing") {
                let seconds = (encoded - loaded).seconds
                let rate = seconds > 0 ? Double(input.utf8.count) / seconds / 1e6 : 0
                printError(String(
                    format: "open+parse %.1f ms, tokenizer build %.1f ms, encode %d bytes → %d tokens in %.2f ms (%.1f MB/s)",
                    (mapped - start).seconds * 1000, (loaded - mapped).seconds * 1000, input.utf8.count, ids.count,
                    seconds * 1000, rate))
            }
            return 0
        } catch {
            printError("tokenize: \(error)")
            return 1
        }
    }

    static func readStdin() throws -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        if let text = String(validating: data, as: UTF8.self) { return text }
        // Locate the first invalid byte for the message.
        var offset = 0
        var iterator = data.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: break loop
            case .error: break loop
            }
        }
        throw Failure.invalidUTF8(offset: offset)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
