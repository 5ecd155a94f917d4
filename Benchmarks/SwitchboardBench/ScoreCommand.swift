import Foundation
import SwitchboardInference

/// `switchboard-bench score --model PATH [--special] [--ids] [--one-by-one] [--dump-logits FILE]`:
/// teacher-forced evaluation of stdin in one batched pass. Prints `{"ids", "top1", "perplexity"}`;
/// top1[i] is the argmax after position i. `--ids`: stdin is a JSON array of token ids instead of
/// text. `--one-by-one`: evaluate one token per forward pass (as a generation decodes).
/// `--dump-logits`: every position's logits as raw little-endian float32 rows (fidelity work).
/// `--reference avx512|avx2`: the llama.cpp build whose float order to follow (default: this CPU's).
struct ScoreCommand: BenchCommand {
    static let name = "score"
    static let summary = "teacher-forced top-1 and perplexity of stdin; prints JSON"
    static let options: [BenchOption]? = [.text("model"), .flag("ids"), .flag("special"), .text("reference"),
                                          .integer("threads", 1...256), .text("dump-logits"), .flag("one-by-one")]

    static func run(_ arguments: Arguments) async -> Int32 {
        do {
            let input = FileHandle.standardInput.readDataToEndOfFile()
            let model = try LanguageModel.load(from: EngineSupport.modelPath(arguments))
            let ids: [Int32]
            if arguments.flag("ids") {
                guard let parsed = try? JSONDecoder().decode([Int32].self, from: input) else {
                    printError("score: --ids expects a JSON array of token ids on stdin"); return 64
                }
                ids = parsed
            } else {
                ids = model.tokenizer.encode(String(decoding: input, as: UTF8.self), addBOS: true, parseSpecial: arguments.flag("special"))
            }
            guard let reference = EngineSupport.reference(arguments) else { printError("score: --reference takes avx512 or avx2"); return 64 }
            let session = InferenceSession(model: model, contextLength: max(ids.count, 1), threads: arguments.int("threads") ?? 2,
                                           reference: reference)
            var dump = Data()
            let keep = arguments.string("dump-logits") != nil
            let score = try session.scoreAll(ids, oneByOne: arguments.flag("one-by-one")) { logits in
                if keep { dump.append(UnsafeBufferPointer(logits)) }
            }
            if let path = arguments.string("dump-logits") { try dump.write(to: URL(fileURLWithPath: path)) }
            EngineSupport.printJSON(["ids": ids.map(Int.init), "top1": score.top1.map(Int.init), "perplexity": score.perplexity])
            return 0
        } catch {
            printError("score: \(error)")
            return 1
        }
    }
}
