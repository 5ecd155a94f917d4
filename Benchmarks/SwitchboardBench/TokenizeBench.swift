import Foundation
import SwitchboardInference

/// `switchboard-bench tokenize --model PATH --bench [--input FILE] [--kb N] [--iterations N]`: encode
/// speed of the model's tokenizer on one core. The sample (FILE, else a built-in English passage) is
/// repeated to N KB (default 512) and encoded `iterations` times (default 7); prints the best and
/// median MB/s of input text, with the CPU, on stdout.
enum TokenizeBench {
    static func run(_ arguments: Arguments, modelPath: String) throws -> Int32 {
        let sample = try arguments.string("input").map { try String(contentsOfFile: $0, encoding: .utf8) } ?? englishSample
        let targetBytes = max(1, arguments.int("kb") ?? 512) * 1024
        var text = ""
        while text.utf8.count < targetBytes { text += sample + "\n" }
        let tokenizer = try Tokenizer(gguf: try GGUFFile(contentsOf: modelPath))
        let clock = ContinuousClock()
        var rates: [Double] = []
        var tokenCount = 0
        for _ in 0..<max(1, arguments.int("iterations") ?? 7) {
            let start = clock.now
            tokenCount = tokenizer.encode(text, addBOS: false).count
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            rates.append(Double(text.utf8.count) / seconds / 1e6)
        }
        rates.sort()
        print(String(
            format: "tokenizer %@ (%@): %d bytes → %d tokens; encode best %.2f MB/s, median %.2f MB/s over %d runs, one core; CPU: %@",
            (modelPath as NSString).lastPathComponent, tokenizer.preTokenizerName.map { "BPE, pre \($0)" } ?? "SentencePiece",
            text.utf8.count, tokenCount, rates[rates.count - 1], rates[rates.count / 2], rates.count, cpuName()))
        return 0
    }

    /// The processor's model name (Linux `/proc/cpuinfo`), or "unknown".
    static func cpuName() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let colon = line.firstIndex(of: ":") else { return "unknown" }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    static let englishSample = """
        The committee met on Tuesday morning to review the quarterly budget. After a long discussion, \
        they agreed that the new library wing would open in the spring, although several members said \
        they'd rather wait until the roof repairs were finished. "We can't keep postponing it," the chair \
        noted, pointing out that 1,250 residents had signed the petition and that the grant of $48,000 \
        expires at the end of the year. Volunteers will help move roughly 12,000 books, and the children's \
        reading room should be ready by May 3rd. Questions about parking, opening hours, or accessibility \
        can be sent to the town office; answers will be posted online within two weeks.
        """
}
