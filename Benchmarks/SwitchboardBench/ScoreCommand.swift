import Foundation
import SwitchboardInference

/// `switchboard-bench score --model PATH`: teacher-forced evaluation of stdin in one batched pass.
/// Prints `{"ids", "top1", "perplexity"}`; top1[i] is the argmax after position i.
struct ScoreCommand: BenchCommand {
    static let name = "score"
    static let summary = "teacher-forced top-1 and perplexity of stdin; prints JSON"

    static func run(_ arguments: Arguments) async -> Int32 {
        do {
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            let model = try LanguageModel.load(from: EngineSupport.modelPath(arguments))
            let ids = model.tokenizer.encode(text, addBOS: true, parseSpecial: arguments.flag("special"))
            let session = InferenceSession(model: model, contextLength: max(ids.count, 1), threads: arguments.int("threads") ?? 2)
            let score = try session.scoreAll(ids)
            EngineSupport.printJSON(["ids": ids.map(Int.init), "top1": score.top1.map(Int.init), "perplexity": score.perplexity])
            return 0
        } catch {
            printError("score: \(error)")
            return 1
        }
    }
}
