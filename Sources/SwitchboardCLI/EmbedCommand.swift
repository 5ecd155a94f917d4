import Foundation
import Switchboard
import SwitchboardLocal

/// `switchboard embed`: sentence vectors on the device, through the runtime's privacy rule.
enum EmbedCommand: CLICommand {
    static let name = "embed"
    static let summary = "sentence vectors on the device (all-MiniLM-L6-v2), one JSON line per text, or their similarities"
    static let usage = """
        usage: switchboard embed [--similarity] [--model-dir DIR] [--threads N] [TEXT...]   (no TEXT: one per line on stdin)
          prints one JSON line per text: {"index", "dimension", "vector"}. With --similarity, the cosine of the
          first text to each of the others instead. The model is all-MiniLM-L6-v2 (Scripts/fetch-model.sh minilm),
          from --model-dir, $SWITCHBOARD_EMBEDDING_MODEL_PATH or the model folder. Texts never leave the device.
          exit codes: 0 ok, 1 embedding failed, 64 bad usage or no text, 66 the model folder is missing
        """
    /// Texts read from stdin at the most: a batch is embedded at once, so its size is bounded.
    static let maxTexts = 10_000

    static func run(_ arguments: CLIArguments) async -> ExitStatus {
        do throws(CLIArguments.UsageError) { try arguments.check(known: ["similarity", "model-dir", "threads"]) } catch {
            printError(error.message); return .usage
        }
        let threads: Int
        do throws(CLIArguments.UsageError) { threads = try arguments.int("threads", in: 1...64, default: 2) } catch {
            printError(error.message); return .usage
        }
        var texts = arguments.positional
        if texts.isEmpty {
            while texts.count <= maxTexts, let line = readLine() { if !line.isEmpty { texts.append(line) } }
        }
        guard !texts.isEmpty, texts.count <= maxTexts else {
            printError(texts.isEmpty ? "nothing to embed" : "at most \(maxTexts) texts at once"); return .usage
        }
        if arguments.flag("similarity"), texts.count < 2 { printError("--similarity needs at least two texts"); return .usage }
        let directory = arguments.string("model-dir") ?? OnDeviceEmbedder.defaultDirectory()
        guard FileManager.default.fileExists(atPath: directory) else {
            printError("no embedding model at \(directory): run Scripts/fetch-model.sh minilm"); return .noInput
        }
        let embedder: OnDeviceEmbedder
        do { embedder = try OnDeviceEmbedder(directory: directory, threads: threads) } catch {
            printError("\(error)"); return .dataError
        }
        let coordinator = Coordinator(providers: [])
        coordinator.register(embedder: embedder)
        let response: EmbeddingResponse
        do { response = try await coordinator.embed(texts) } catch { printError("\(error)"); return .failed }
        if arguments.flag("similarity") {
            let first = response.vectors[0]
            for (index, vector) in response.vectors.enumerated().dropFirst() {
                let cosine = zip(first, vector).reduce(Float(0)) { $0 + $1.0 * $1.1 }  // the vectors are L2-normalized
                print(#"{"index":\#(index),"cosine":\#(String(format: "%.6f", cosine))}"#)
            }
        } else {
            for (index, vector) in response.vectors.enumerated() {
                let numbers = vector.map { String(format: "%.7g", $0) }.joined(separator: ",")
                print(#"{"index":\#(index),"dimension":\#(vector.count),"vector":[\#(numbers)]}"#)
            }
        }
        return .ok
    }
}
