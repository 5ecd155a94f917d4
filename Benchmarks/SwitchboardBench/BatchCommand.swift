import Foundation
import SwitchboardCore
import SwitchboardLocal

/// `switchboard-bench batch --model PATH --streams N --tokens T [--json]`: N concurrent requests with
/// different prompts through the local provider (batch size N), after each prompt alone; prints the
/// aggregate decode tokens/s of the concurrent run, the single-stream rate, time to first token
/// p50/p99, whether every stream's text equals its single-stream run, and peak RSS. `--kv-budget-mb`
/// sets the engine's KV memory ceiling and checks peak RSS against model file + budget + 50 MB.
struct BatchCommand: BenchCommand {
    static let name = "batch"
    static let summary = "N concurrent local requests, batched: aggregate vs single-stream tok/s; --json"
    static let options: [BenchOption]? = [.integer("streams", 1...64), .integer("tokens", 1...4096), .integer("kv-budget-mb", 1...1_048_576),
                                          .flag("json")]
        + BenchOption.localModel

    static let topics = ["a dragon who learns to bake bread", "a lighthouse keeper and a storm", "a robot that paints sunsets",
                         "two friends crossing a desert", "a cat who runs a bakery", "a violin found in an attic",
                         "a city under the sea", "a train that never stops", "a garden on the moon", "a clock that runs backwards",
                         "a fox and a crow", "a library at midnight", "a boat made of paper", "an island of birds",
                         "a snowman in summer", "a map with no edges"]

    static func run(_ arguments: Arguments) async -> Int32 {
        let streams = arguments.int("streams") ?? 8, tokens = arguments.int("tokens") ?? 128
        guard (1...64).contains(streams), (1...4096).contains(tokens) else {
            printError("batch: --streams must be 1…64 and --tokens 1…4096"); return 64
        }
        let path = arguments.string("model") ?? BenchLocalModel.chatPath(arguments)
        let configuration: ModelConfiguration = path.hasSuffix(ModelConfiguration.gemma3_270m.fileName) ? .gemma3_270m : .smolLM2_135mInstruct
        let budgetMB = arguments.int("kv-budget-mb")
        let provider = LocalModelProvider(configuration: configuration, modelPath: path,
                                          loader: LocalEngineLoader(threads: BenchLocalModel.threads(arguments), batchSize: streams,
                                                                    kvBudgetBytes: budgetMB.map { $0 << 20 }),
                                          idleTimeout: nil)
        guard await BenchLocalModel.load(provider, quiet: arguments.flag("json")) else { return 1 }
        let requests = (0..<streams).map { i in
            configuration.promptFormat.isChat
                ? GenerationRequest(prompt: "Write a long story about \(topics[i % topics.count]).", maxTokens: tokens)
                : GenerationRequest(prompt: "Once upon a time, \(topics[i % topics.count])", kind: .completion, maxTokens: tokens)
        }
        var alone: [StreamRun] = []
        for request in requests { alone.append(await StreamRun.measure(provider, request)) }
        let clock = ContinuousClock(), start = clock.now
        let together = await withTaskGroup(of: (Int, StreamRun).self) { group in
            for (i, request) in requests.enumerated() { group.addTask { (i, await StreamRun.measure(provider, request, origin: start)) } }
            var runs = [StreamRun?](repeating: nil, count: streams)
            for await (i, run) in group { runs[i] = run }
            return runs.compactMap { $0 }
        }
        let failures = (alone + together).compactMap(\.error)
        guard failures.isEmpty else { printError("batch: \(failures[0])"); return 1 }
        // Aggregate decode rate: every token after each stream's first, over the span from the first
        // first-token to the last stream's end.
        let decoded = together.reduce(0) { $0 + max(0, $1.tokens - 1) }
        let span = (together.map(\.end).max() ?? 0) - (together.map(\.firstToken).min() ?? 0)
        let aggregate = span > 0 ? Double(decoded) / span : 0
        let single = alone.map(\.decodeRate).sorted()[alone.count / 2]
        let ttfts = together.map { $0.firstToken * 1000 }.sorted()
        let identical = zip(alone, together).allSatisfy { $0.text == $1.text }
        let fileMB = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576
        let peak = EngineSupport.peakRSSMegabytes()
        var result: [String: Any] = [
            "model": configuration.id, "streams": streams, "tokens": tokens, "threads": BenchLocalModel.threads(arguments),
            "aggregate_tokens_per_second": EngineSupport.round1(aggregate),
            "single_stream_tokens_per_second": EngineSupport.round1(single),
            "per_stream_tokens_per_second": together.map { EngineSupport.round1($0.decodeRate) },
            "speedup": EngineSupport.round1(single > 0 ? aggregate / single : 0),
            "generated_tokens": together.map(\.tokens),
            "ttft_p50_ms": EngineSupport.round1(ttfts[ttfts.count / 2]),
            "ttft_p99_ms": EngineSupport.round1(ttfts[min(ttfts.count - 1, Int((Double(ttfts.count) * 0.99).rounded(.up)) - 1)]),
            "identical": identical, "peak_rss_mb": EngineSupport.round1(peak), "model_file_mb": EngineSupport.round1(fileMB),
        ]
        if let budgetMB {
            result["kv_budget_mb"] = budgetMB
            result["peak_rss_within_budget"] = peak <= fileMB + Double(budgetMB) + 50
        }
        if arguments.flag("json") {
            EngineSupport.printJSON(result)
        } else {
            print("batch: \(streams) streams × \(tokens) tokens on \(configuration.id): aggregate "
                  + String(format: "%.1f tok/s vs %.1f single-stream (%.2f×); ttft p50 %.0f ms, p99 %.0f ms; identical: %@; peak RSS %.0f MB",
                           aggregate, single, single > 0 ? aggregate / single : 0, ttfts[ttfts.count / 2], ttfts.last ?? 0,
                           identical ? "yes" : "NO", peak)
                  + (budgetMB.map { String(format: " (model file %.0f MB + KV budget %d MB + 50 = %.0f MB)", fileMB, $0,
                                           fileMB + Double($0) + 50) } ?? ""))
        }
        return identical ? 0 : 1
    }
}

/// One request's stream as the caller saw it (seconds from `origin`, or from its own start).
struct StreamRun: Sendable {
    var text = ""
    var tokens = 0
    var firstToken: Double = 0
    var end: Double = 0
    var error: ProviderError?
    var decodeRate: Double { end > firstToken && tokens > 1 ? Double(tokens - 1) / (end - firstToken) : 0 }

    static func measure(_ provider: LocalModelProvider, _ request: GenerationRequest,
                        origin: ContinuousClock.Instant = .now) async -> StreamRun {
        var run = StreamRun()
        let clock = ContinuousClock()
        do {
            for try await event in await provider.generate(ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public))) {
                switch event {
                case .token(let piece):
                    if run.tokens == 0 { run.firstToken = (clock.now - origin).seconds }
                    run.tokens += 1
                    run.text += piece
                case .finished(_, let usage):
                    if let usage { run.tokens = usage.completionTokens }
                case .toolCall: break  // the bench offers no tools
                }
            }
        } catch {
            run.error = error as? ProviderError ?? .transport("\(error)")
        }
        run.end = (clock.now - origin).seconds
        return run
    }
}
