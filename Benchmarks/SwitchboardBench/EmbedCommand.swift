import Foundation
import SwitchboardInference

/// `switchboard-bench embed [--model PATH] [--threads N] [--bench [--json]]`: embeds each non-empty
/// line of stdin with a BERT sentence encoder (all-MiniLM-L6-v2 by default) and prints one JSON line
/// per text, `{"index", "tokens", "embedding"}`. PATH is a model folder (`model.safetensors`,
/// `tokenizer.json`, `config.json`) or a llama.cpp `bert` GGUF.
///
/// `--bench` measures instead, on the 256 sentences of `shared/tools/llembed_speed.py` (llama.cpp's
/// anchor): batched throughput (best of 3 passes in batches of 64) and the median latency of one
/// sentence over 32 single calls.
struct EmbedCommand: BenchCommand {
    static let name = "embed"
    static let summary = "embed stdin lines with a BERT sentence encoder (JSON lines); --bench for speed"
    static let options: [BenchOption]? = [.text("model"), .integer("threads", 1...64), .flag("bench"), .flag("json"),
                                          .integer("batch", 1...4096)]

    static func defaultModelPath() -> String {
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_EMBEDDING_MODEL_PATH"], !path.isEmpty { return path }
        return NSHomeDirectory() + "/.cache/switchboard/models/all-MiniLM-L6-v2"
    }

    static func run(_ arguments: Arguments) async -> Int32 {
        let path = arguments.string("model") ?? defaultModelPath()
        let threads = arguments.int("threads") ?? 2
        do {
            let clock = ContinuousClock(), start = clock.now
            let encoder = path.hasSuffix(".gguf") ? try BertEncoder(gguf: path, threads: threads) : try BertEncoder(directory: path, threads: threads)
            let loadSeconds = (clock.now - start).seconds
            if arguments.flag("bench") { return bench(encoder, threads: threads, json: arguments.flag("json"), path: path, load: loadSeconds) }
            let input = try TokenizeCommand.readStdin()
            let texts = input.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
            let batch = arguments.int("batch") ?? 64
            var index = 0
            for first in stride(from: 0, to: texts.count, by: batch) {
                let group = Array(texts[first..<min(texts.count, first + batch)])
                for (text, vector) in zip(group, encoder.embed(group)) {
                    let tokens = encoder.tokenizer.encode(text, maxLength: encoder.maxSequenceLength).count
                    print("{\"index\":\(index),\"tokens\":\(tokens),\"embedding\":[" + vector.map { "\($0)" }.joined(separator: ",") + "]}")
                    index += 1
                }
            }
            return 0
        } catch {
            printError("embed: \(error)")
            return 1
        }
    }

    /// The sentences of `llembed_speed.py`: 16 subjects × 16 numbers, about 15 tokens each.
    static let benchSentences: [String] = {
        let subjects = ["cat", "dog", "ship", "tree", "robot", "river", "city", "star",
                        "horse", "lamp", "clock", "bird", "stone", "cloud", "book", "key"]
        return (0..<16).flatMap { i in
            zip(subjects, subjects.reversed()).map { s, t in "The \(s) number \(i) is waiting quietly near the old \(t) today." }
        }
    }()

    static func bench(_ encoder: BertEncoder, threads: Int, json: Bool, path: String, load: Double) -> Int32 {
        let sentences = benchSentences
        let tokens = sentences.reduce(0) { $0 + encoder.tokenizer.encode($1).count }
        let clock = ContinuousClock()
        _ = encoder.embed(Array(sentences.prefix(8)))
        var best = Double.infinity, bestCPU = 0.0
        for _ in 0..<3 {
            let start = clock.now, cpu = processCPUSeconds()
            for first in stride(from: 0, to: sentences.count, by: 64) { _ = encoder.embed(Array(sentences[first..<(first + 64)])) }
            let elapsed = (clock.now - start).seconds
            if elapsed < best { best = elapsed; bestCPU = processCPUSeconds() - cpu }
        }
        var latencies: [Double] = [], cpuLatencies: [Double] = []
        for sentence in sentences.prefix(32) {
            let start = clock.now, cpu = processCPUSeconds()
            _ = encoder.embed([sentence])
            latencies.append((clock.now - start).seconds)
            cpuLatencies.append(processCPUSeconds() - cpu)
        }
        latencies.sort(); cpuLatencies.sort()
        let p50 = latencies[latencies.count / 2] * 1000, cpuP50 = cpuLatencies[cpuLatencies.count / 2] * 1000
        let perSecond = Double(sentences.count) / best, tokensPerSecond = Double(tokens) / best
        if json {
            print(String(format: "{\"sentences\": %d, \"tokens\": %d, \"sentences_per_second\": %.1f, \"tokens_per_second\": %.1f, "
                         + "\"single_p50_ms\": %.2f, \"threads\": %d, \"load_ms\": %.1f, \"batched_cpu_seconds\": %.3f, "
                         + "\"single_p50_cpu_ms\": %.2f, \"load_average_1m\": %@, \"model\": \"%@\", \"cpu\": \"%@\"}",
                         sentences.count, tokens, perSecond, tokensPerSecond, p50, threads, load * 1000, bestCPU, cpuP50, loadAverage(),
                         (path as NSString).lastPathComponent, TokenizeBench.cpuName()))
        } else {
            print(String(format: "%d sentences (%d tokens): %.1f sentences/s, %.0f tokens/s batched; one sentence p50 %.2f ms; "
                         + "%d threads, load %.0f ms; CPU: %@", sentences.count, tokens, perSecond, tokensPerSecond, p50, threads,
                         load * 1000, TokenizeBench.cpuName()))
        }
        return 0
    }

    /// User + system time of the whole process: on a shared machine, what the work itself cost
    /// (with helper threads' spin-waits included).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The 1-minute load average (`/proc/loadavg`), so a report says how busy the machine was.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) }.map { String($0) } ?? "null"
    }
}
