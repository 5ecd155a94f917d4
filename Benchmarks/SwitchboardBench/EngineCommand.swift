import Foundation
import SwitchboardInference

/// `switchboard-bench engine --model PATH [--threads N] [--runs 3] [--batch N] [--json]`: prefill a
/// 512-token prompt (the filler text of shared/tools/llamacpp_reference.py) and decode 128 tokens
/// greedily; reports the median of the runs and the peak RSS. `--batch N`: N sequences decoded
/// together (`BatchedSession`), aggregate tokens/s (`EngineCommand+Batch.swift`).
struct EngineCommand: BenchCommand {
    static let name = "engine"
    static let summary = "prefill 512 / decode 128 throughput and peak RSS; prints JSON"
    static let options: [BenchOption]? = [.text("model"), .integer("threads", 1...256), .integer("prompt-tokens", 1...8192),
                                          .integer("decode-tokens", 1...8192), .integer("runs", 1...1000), .flag("json"),
                                          .integer("batch", 1...64), .text("reference")]

    static let filler = "The committee reviewed the proposal in detail, weighing the costs of construction against the "
        + "expected benefits to the town. Several members raised concerns about traffic, noise and the "
        + "timeline, while others argued that the new library would serve students and families for decades. "

    static func run(_ arguments: Arguments) async -> Int32 {
        if let batch = arguments.int("batch"), batch > 1 { return await runBatched(arguments, batch: batch) }
        do {
            let model = try LanguageModel.load(from: EngineSupport.modelPath(arguments))
            let threads = arguments.int("threads") ?? 2
            let promptTokens = arguments.int("prompt-tokens") ?? 512, decodeTokens = arguments.int("decode-tokens") ?? 128
            let ids = Array(model.tokenizer.encode(String(repeating: filler, count: 40), addBOS: true).prefix(promptTokens))
            guard let reference = EngineSupport.reference(arguments) else { printError("engine: --reference takes avx512 or avx2"); return 64 }
            let session = InferenceSession(model: model, contextLength: promptTokens + decodeTokens + 1, threads: threads, reference: reference)
            let clock = ContinuousClock()
            var prefill: [Double] = [], decode: [Double] = []
            for _ in 0..<(arguments.int("runs") ?? 3) {
                session.reset()
                let start = clock.now
                var next = Int32(LogitMath.argmax(try session.prefill(ids)))
                let prefilled = clock.now
                for _ in 0..<decodeTokens {
                    next = Int32(LogitMath.argmax(try session.decode(next)))
                }
                let decoded = clock.now
                prefill.append(Double(ids.count) / EngineSupport.seconds(prefilled - start))
                decode.append(Double(decodeTokens) / EngineSupport.seconds(decoded - prefilled))
            }
            func median(_ x: [Double]) -> Double { x.sorted()[x.count / 2] }
            let result: [String: Any] = [
                "engine": "switchboard", "threads": threads, "prompt_tokens": ids.count, "reference": reference.rawValue,
                "prefill_tokens_per_second": EngineSupport.round1(median(prefill)),
                "decode_tokens_per_second": EngineSupport.round1(median(decode)),
                "prefill_runs": prefill.map(EngineSupport.round1), "decode_runs": decode.map(EngineSupport.round1),
                "peak_rss_mb": EngineSupport.round1(EngineSupport.peakRSSMegabytes()),
            ]
            if arguments.flag("json") {
                EngineSupport.printJSON(result)
            } else {
                EngineSupport.printJSON(result)
            }
            return 0
        } catch {
            printError("engine: \(error)")
            return 1
        }
    }
}
