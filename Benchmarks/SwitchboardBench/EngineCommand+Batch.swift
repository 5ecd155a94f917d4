import Foundation
import SwitchboardInference

extension EngineCommand {
    /// The raw batched engine: `batch` sequences, each prefilled with a different 128-token slice of
    /// the filler text, then `--decode-tokens` greedy steps decoding all of them in each forward pass.
    static func runBatched(_ arguments: Arguments, batch: Int) async -> Int32 {
        guard batch <= 64 else { printError("engine: --batch must be at most 64"); return 64 }
        do {
            let model = try LanguageModel.load(from: EngineSupport.modelPath(arguments))
            let threads = arguments.int("threads") ?? 2, promptTokens = arguments.int("prompt-tokens") ?? 128
            let decodeTokens = arguments.int("decode-tokens") ?? 128
            let text = model.tokenizer.encode(String(repeating: filler, count: 60), addBOS: false)
            let session = BatchedSession(model: model, capacity: batch, contextLength: promptTokens + decodeTokens + 2, threads: threads)
            let clock = ContinuousClock()
            var next = [Int32](repeating: 0, count: batch)
            let start = clock.now
            for s in 0..<batch {
                let ids = Array(text[(s * 7)..<(s * 7 + promptTokens)])
                var offset = 0
                while offset < ids.count {
                    if let logits = try session.prefill(ids, from: offset, slot: s) { next[s] = Int32(LogitMath.argmax(logits)) }
                    offset += session.sliceSize
                }
            }
            let prefilled = clock.now
            for _ in 0..<decodeTokens {
                try session.decode((0..<batch).map { ($0, next[$0]) }) { row, logits in next[row] = Int32(LogitMath.argmax(logits)) }
            }
            let decoded = clock.now
            EngineSupport.printJSON([
                "engine": "switchboard", "threads": threads, "batch": batch, "prompt_tokens": promptTokens,
                "prefill_tokens_per_second": EngineSupport.round1(Double(batch * promptTokens) / EngineSupport.seconds(prefilled - start)),
                "aggregate_decode_tokens_per_second": EngineSupport.round1(Double(batch * decodeTokens) / EngineSupport.seconds(decoded - prefilled)),
                "peak_rss_mb": EngineSupport.round1(EngineSupport.peakRSSMegabytes()),
            ])
            return 0
        } catch {
            printError("engine: \(error)")
            return 1
        }
    }
}
