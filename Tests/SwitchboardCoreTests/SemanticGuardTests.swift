import Foundation
import SwitchboardCore
import Testing

@Suite("Semantic cache guard")
struct SemanticGuardTests {
    struct Pair { var label: String; var cached: String; var candidate: String }

    static let pairs: [Pair] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/semantic-cache/pairs.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return fields.count == 3 ? Pair(label: fields[0], cached: fields[1], candidate: fields[2]) : nil
        }
    }()

    @Test("Negation: a marker on one side, a negating prefix, or an antonym")
    func negation() {
        #expect(SemanticGuard.refusal(cached: "Is tap water safe here?", candidate: "Is tap water not safe here?") == .negation)
        #expect(SemanticGuard.refusal(cached: "Is tap water safe here?", candidate: "Is tap water unsafe here?") == .negation)
        #expect(SemanticGuard.refusal(cached: "How do I enable sync?", candidate: "How do I disable sync?") == .negation)
        #expect(SemanticGuard.refusal(cached: "Why does it build?", candidate: "Why doesn't it build?") == .negation)
        #expect(SemanticGuard.refusal(cached: "Ist das gesund?", candidate: "Ist das nicht gesund?") == .negation)
        #expect(SemanticGuard.refusal(cached: "Turn the heating on at night?", candidate: "Turn the heating off at night?") == .negation)
        // Two negations cancel; the same negation on both sides is no difference.
        #expect(SemanticGuard.refusal(cached: "Is it safe?", candidate: "Is it not unsafe?") != .number)
        #expect(SemanticGuard.refusal(cached: "Why not use tabs?", candidate: "Why not use tabs for indenting?") == nil)
        #expect(SemanticGuard.refusal(cached: "What is a unit test?", candidate: "What is it, a test?") == nil)
    }

    @Test("Numbers: digits of any script, ordinals, number words; separators do not matter")
    func numbers() {
        #expect(SemanticGuard.refusal(cached: "What is 15% of 80?", candidate: "What is 15% of 90?") == .number)
        #expect(SemanticGuard.refusal(cached: "Plan a three-day trip", candidate: "Plan a 3-day trip") == nil)
        #expect(SemanticGuard.refusal(cached: "Plan a three-day trip", candidate: "Plan a five-day trip") == .number)
        #expect(SemanticGuard.refusal(cached: "Explain the 12th amendment", candidate: "Explain the twelfth amendment") == nil)
        #expect(SemanticGuard.refusal(cached: "Price of 1,000 shares", candidate: "Price of 1000 shares") == nil)
        #expect(SemanticGuard.refusal(cached: "Price of ١٢ shares", candidate: "Price of 12 shares") == nil)
        #expect(SemanticGuard.refusal(cached: "Alarm at 6:30", candidate: "Alarm at 7:30") == .number)
    }

    @Test("Names: capitalized words inside a sentence, acronyms and quoted text; possessives folded")
    func entities() {
        #expect(SemanticGuard.refusal(cached: "What is the capital of Austria?", candidate: "What is the capital of Australia?") == .entity)
        #expect(SemanticGuard.refusal(cached: "How big is the GDP of Germany?", candidate: "What is Germany's GDP?") == nil)
        #expect(SemanticGuard.refusal(cached: "Translate \"thank you\" to French", candidate: "Translate \"good night\" to French") == .entity)
        #expect(SemanticGuard.refusal(cached: "What does HTTP mean?", candidate: "What does FTP mean?") == .entity)
        #expect(SemanticGuard.refusal(cached: "Where is it? Paris is nice.", candidate: "Where is it? Paris is lovely.") == nil)
    }

    @Test("On the labeled pairs: most near-misses refused by the guard alone, few paraphrases refused")
    func labeledPairs() {
        #expect(Self.pairs.count >= 160)
        let hits = Self.pairs.filter { $0.label == "hit" }
        let misses = Self.pairs.filter { ["negation", "number"].contains($0.label) }
        let refusedHits = hits.filter { SemanticGuard.refusal(cached: $0.cached, candidate: $0.candidate) != nil }
        let passedMisses = misses.filter { SemanticGuard.refusal(cached: $0.cached, candidate: $0.candidate) == nil }
        // Paraphrases lose at most a tenth to the guard; a negated or renumbered question almost never passes it.
        #expect(refusedHits.count * 10 <= hits.count, "\(refusedHits.map(\.candidate))")
        #expect(passedMisses.count * 20 <= misses.count, "\(passedMisses.map(\.candidate))")
        for pair in Self.pairs where pair.label == "negation" || pair.label == "number" {
            if let reason = SemanticGuard.refusal(cached: pair.cached, candidate: pair.candidate) {
                #expect(reason.rawValue == pair.label || pair.label == "negation", "\(pair.candidate): \(reason)")
            }
        }
    }
}
