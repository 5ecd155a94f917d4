import Foundation
import SwitchboardInference

/// `switchboard-bench generate --model PATH --prompt TEXT --max-tokens N [--chat] [--temperature T]
/// [--seed S] [--threads N] [--no-speculative] [--json]`: streams the generated text, or with `--json` prints one object
/// with ids (end-of-turn excluded), text, prompt_tokens and timings. `--chat` wraps the prompt as one
/// user turn in the model's own chat template.
struct GenerateCommand: BenchCommand {
    static let name = "generate"
    static let summary = "generate text from --prompt; --json for ids and timings"
    static let options: [BenchOption]? = [.text("prompt"), .text("model"), .integer("threads", 1...256), .number("temperature", 0...10),
                                          .seed(), .integer("max-tokens", 1...4000), .flag("json"), .flag("chat"),
                                          .flag("no-speculative")]

    static func run(_ arguments: Arguments) async -> Int32 {
        guard let prompt = arguments.string("prompt") else { printError("generate: --prompt TEXT is required"); return 64 }
        do {
            let model = try LanguageModel.load(from: EngineSupport.modelPath(arguments))
            let generator = BatchedGenerator(model: model, capacity: 1, contextLength: 4096, threads: arguments.int("threads") ?? 2)
            let temperature = Float(arguments.double("temperature") ?? 0)
            let sampler = temperature > 0
                ? SamplerConfiguration(temperature: temperature, seed: arguments.uint64("seed") ?? 0)
                : .greedy
            let options = GenerationOptions(maxTokens: arguments.int("max-tokens") ?? 64, sampler: sampler,
                                            speculative: !arguments.flag("no-speculative"))
            let json = arguments.flag("json")
            var ids = model.tokenizer.encode(prompt, addBOS: true, parseSpecial: true)
            if arguments.flag("chat") {
                guard let template = model.chatTemplate else {
                    printError("generate: --chat: the model file has no chat template (it only continues text)"); return 64
                }
                ids = model.tokenizer.encode(template.segments([ChatTurn(.user, prompt)]))
            }
            var text = ""
            var summary: GenerationSummary?
            for try await event in generator.events(ids: ids, options: options) {
                switch event {
                case .token(let token):
                    text += token.text
                    if !json { FileHandle.standardOutput.write(Data(token.text.utf8)) }
                case .finished(let s):
                    summary = s
                }
            }
            guard let summary else { return 1 }
            if json {
                EngineSupport.printJSON([
                    "ids": summary.generatedIDs.map(Int.init), "prompt_ids": ids.map(Int.init), "text": text, "prompt_tokens": summary.promptTokens,
                    "finish_reason": "\(summary.finishReason)",
                    "prefill_tokens_per_second": EngineSupport.round1(summary.prefillTokensPerSecond),
                    "decode_tokens_per_second": EngineSupport.round1(summary.decodeTokensPerSecond),
                    "decode_passes": summary.decodePasses, "accepted_draft_tokens": summary.acceptedDraftTokens,
                    "time_to_first_token_ms": EngineSupport.round1(EngineSupport.seconds(summary.timeToFirstToken) * 1000),
                ])
            } else {
                print("")
            }
            return 0
        } catch {
            printError("generate: \(error)")
            return 1
        }
    }
}
