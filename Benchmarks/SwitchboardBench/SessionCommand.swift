import Foundation
import Switchboard
import SwitchboardLocal

/// `switchboard-bench session [--json]`: a scripted 4-turn conversation (`Session`) on the local
/// instruct model, run twice — with the engine keeping each turn's KV cache for the next, and
/// without — printing time to first token per turn (`--json`: `ttft_ms_with_reuse`,
/// `ttft_ms_without_reuse`, `reused_prompt_tokens`).
enum SessionCommand: BenchCommand {
    static let name = "session"
    static let summary = "4-turn conversation on the local instruct model: ttft per turn with and without KV reuse"
    static let options: [BenchOption]? = [.flag("json"), .integer("max-tokens", 1...512)] + BenchOption.localModel

    static let instructions = "You are a helpful assistant. Answer briefly and accurately."
    static let turns = [
        "Here are my notes from the planning meeting. The library renovation starts in March and runs for nine months. "
            + "The budget is two million dollars, shared between the city and a private donor. The children's wing moves "
            + "to the second floor, the reading room gets new windows, and the parking lot is rebuilt with bicycle racks. "
            + "During the work the library stays open with shorter hours, and a mobile book van visits the schools. "
            + "The council votes on the final design in January. What is the budget?",
        "When does the work start?",
        "Where does the children's wing move?",
        "What visits the schools during the work?",
    ]

    static func run(_ arguments: Arguments) async -> Int32 {
        let maxTokens = arguments.int("max-tokens") ?? 24
        let path = BenchLocalModel.chatPath(arguments)
        var results: [(ttft: [Double], reused: [Int])] = []
        for reuse in [true, false] {
            let provider = LocalModelProvider(configuration: .smolLM2_135mInstruct, modelPath: path,
                                              loader: LocalEngineLoader(threads: BenchLocalModel.threads(arguments), batchSize: 2,
                                                                        reusesPrefixes: reuse), idleTimeout: nil)
            guard await BenchLocalModel.load(provider, quiet: true) else { return 1 }
            let session = Session(coordinator: Coordinator(providers: [provider]), instructions: instructions,
                                  options: Session.Options(maxTokens: maxTokens))
            var ttft: [Double] = [], reused: [Int] = []
            for turn in turns {
                do {
                    let response = try await session.respond(to: turn)
                    ttft.append((response.timings.timeToFirstToken ?? .zero).seconds * 1000)
                    reused.append(response.usage.cachedPromptTokens)
                    if !arguments.flag("json") { print("[\(reuse ? "reuse" : "fresh")] \(turn.prefix(40))… → \(response.content)") }
                } catch {
                    printError("session: \(error)"); return 1
                }
            }
            results.append((ttft, reused))
            await provider.unload()
        }
        let with = results[0].ttft, without = results[1].ttft
        if arguments.flag("json") {
            EngineSupport.printJSON(["ttft_ms_with_reuse": with.map(EngineSupport.round1), "ttft_ms_without_reuse": without.map(EngineSupport.round1),
                                     "reused_prompt_tokens": results[0].reused, "turn4_speedup": EngineSupport.round1(without[3] / max(with[3],
                                         1e-6))])
        } else {
            for i in turns.indices {
                print(String(format: "turn %d: first token %.1f ms with reuse (%d prompt tokens reused), %.1f ms without", i + 1, with[i],
                             results[0].reused[i], without[i]))
            }
        }
        return 0
    }
}
