import Foundation

/// What `speculate` prints: one JSON object (`--json`, the keys issue 28 names), or a table of the
/// tasks as they run and a summary.
struct SpeculateReport {
    var extraction: SpeculateTally
    var structured: SpeculateTally
    var model: String
    var tasks: Int
    var structuredTasks: Int
    var maxTokens: Int
    var repeats: Int
    var threads: Int
    var wallSeconds: Double

    /// Every speculative output equal to plain greedy, and every structured output valid.
    var passed: Bool { extraction.identical && structured.identical && structured.valid }

    static func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    func object(details: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "plain_tokens_per_second": EngineSupport.round1(extraction.plainRate),
            "speculative_tokens_per_second": EngineSupport.round1(extraction.speculativeRate),
            "speedup": Self.round3(extraction.speedup),
            "forward_passes_plain": extraction.plainPasses,
            "forward_passes_speculative": extraction.speculativePasses,
            "accepted_draft_tokens": extraction.acceptedDraftTokens,
            "drafted_tokens": extraction.draftedTokens,
            "identical": extraction.identical,
            "generated_tokens": extraction.generatedTokens,
            "facts_copied": Self.round3(extraction.factsCopied),
            "structured_plain_tokens_per_second": EngineSupport.round1(structured.plainRate),
            "structured_speculative_tokens_per_second": EngineSupport.round1(structured.speculativeRate),
            "structured_speedup": Self.round3(structured.speedup),
            "structured_forward_passes_plain": structured.plainPasses,
            "structured_forward_passes_speculative": structured.speculativePasses,
            "structured_accepted_draft_tokens": structured.acceptedDraftTokens,
            "structured_drafted_tokens": structured.draftedTokens,
            "structured_identical": structured.identical,
            "structured_valid": structured.valid,
            "structured_generated_tokens": structured.generatedTokens,
            "tasks": tasks, "structured_tasks": structuredTasks, "repeat": repeats, "max_tokens": maxTokens, "threads": threads,
            "reused_prompt_tokens": extraction.reusedPromptTokens + structured.reusedPromptTokens,
            "wall_seconds": EngineSupport.round1(wallSeconds),
            "model": model, "cpu": EngineSupport.cpuDescription(),
        ]
        if details {
            object["per_task"] = (extraction.pairs + structured.pairs).map { pair -> [String: Any] in
                var row: [String: Any] = [
                    "id": pair.id, "tokens": pair.plain.ids.count,
                    "plain_tokens_per_second": EngineSupport.round1(pair.plain.tokensPerSecond),
                    "speculative_tokens_per_second": EngineSupport.round1(pair.speculative.tokensPerSecond),
                    "passes_plain": pair.plain.decodePasses, "passes_speculative": pair.speculative.decodePasses,
                    "accepted_draft_tokens": pair.speculative.acceptedDraftTokens, "identical": pair.identical,
                ]
                if let valid = pair.speculativeValid { row["valid"] = valid && pair.plainValid != false }
                if pair.factCount > 0 { row["facts"] = pair.factCount; row["facts_copied"] = pair.factsCopied }
                return row
            }
        }
        return object
    }

    static let header = "task                      tokens  plain tok/s  spec tok/s  passes plain/spec  accepted  identical"

    static func row(_ pair: SpeculatePair) -> String {
        let validity = pair.speculativeValid.map { $0 && pair.plainValid != false ? "" : "  INVALID" } ?? ""
        return pair.id.padding(toLength: 24, withPad: " ", startingAt: 0) + String(
            format: "  %6d  %11.1f  %10.1f  %8d / %-6d  %8d  %@", pair.plain.ids.count, pair.plain.tokensPerSecond,
            pair.speculative.tokensPerSecond, pair.plain.decodePasses, pair.speculative.decodePasses,
            pair.speculative.acceptedDraftTokens, pair.identical ? "yes" : "NO") + validity
    }

    var text: String {
        func line(_ name: String, _ tally: SpeculateTally) -> String {
            String(format: "%@: plain %.1f tok/s, speculative %.1f tok/s = %.3f×; forward passes %d → %d, %d drafted tokens accepted; identical: %@",
                   name, tally.plainRate, tally.speculativeRate, tally.speedup, tally.plainPasses, tally.speculativePasses,
                   tally.acceptedDraftTokens, tally.identical ? "yes" : "NO")
        }
        return [
            "",
            line("extraction (\(tasks) tasks)", extraction) + String(format: "; facts copied %.0f%%", extraction.factsCopied * 100),
            line("structured (\(structuredTasks) tasks)", structured) + "; valid: " + (structured.valid ? "yes" : "NO"),
            String(format: "%@, max %d tokens, %d thread(s), repeat %d, %.1f s; CPU: %@", model, maxTokens, threads, repeats, wallSeconds,
                   EngineSupport.cpuDescription()),
        ].joined(separator: "\n")
    }
}
