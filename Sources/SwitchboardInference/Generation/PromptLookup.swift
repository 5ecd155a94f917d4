/// Prompt-lookup drafting (Saxena, "Prompt Lookup Decoding", 2023): the tokens that followed the
/// latest earlier occurrence of the sequence's last few tokens, in the prompt or the text so far.
/// Extraction and rewriting copy their input (names, numbers, phrases), and a document repeats its
/// own formatting, so the model's next tokens are often the ones that followed the same tokens there.
/// A draft is only a guess: the model verifies it (`BatchLoop`), so a wrong one costs rows, not output.
struct PromptLookup {
    /// The longest suffix tried first; longer matches predict better.
    var longestMatch = 4
    /// The shortest suffix that may start a draft.
    var shortestMatch = 2

    /// Up to `limit` tokens following the latest earlier occurrence of the longest matching suffix
    /// of `prompt + generated` (whose last token is the one about to be fed).
    func draft(prompt: [Int32], generated: [Int32], limit: Int) -> [Int32] {
        match(prompt: prompt, generated: generated, limit: limit).tokens
    }

    /// The draft and the length of the suffix that matched (0: no draft).
    func match(prompt: [Int32], generated: [Int32], limit: Int) -> (tokens: [Int32], length: Int) {
        let count = prompt.count + generated.count
        guard limit > 0, count > shortestMatch else { return ([], 0) }
        @inline(__always) func token(_ i: Int) -> Int32 { i < prompt.count ? prompt[i] : generated[i - prompt.count] }
        for n in stride(from: min(longestMatch, count - 1), through: shortestMatch, by: -1) {
            // The match ends at `end` (exclusive), before the suffix itself ends; latest first.
            var end = count - 1
            while end >= n {
                var matched = true
                for j in 1...n where token(end - j) != token(count - j) { matched = false; break }
                if matched {
                    let length = min(limit, count - end)
                    return ((0..<length).map { token(end + $0) }, n)
                }
                end -= 1
            }
        }
        return ([], 0)
    }
}

/// Where a draft came from: a prompt-lookup match of some length (a longer match is stronger
/// evidence) or the schema's forced text.
enum DraftSource: Int, CaseIterable, Sendable {
    case lookup2, lookup3, lookup4, schema

    init(matchLength: Int) { self = matchLength >= 4 ? .lookup4 : matchLength == 3 ? .lookup3 : .lookup2 }
}

/// How many drafted tokens one sequence feeds in a pass. Draft row `j` counts only if drafts 1…j
/// are all confirmed, which this sequence's record for that kind of draft says happens with
/// probability about `acceptance^j`; the row is worth its cost while that beats the tokens per
/// second of the pass without it (`DecodeCost.threshold`). A sequence whose drafts fail drafts
/// little; one that copies drafts long.
struct Drafting: Equatable {
    static let most = 16
    /// Per source: confirmed drafts and drafts put to the test (their row's input was confirmed),
    /// decayed so the record follows the text (a copied span, then free prose); the prior is one in two.
    private var confirmed = [Double](repeating: 1, count: DraftSource.allCases.count)
    private var tested = [Double](repeating: 2, count: DraftSource.allCases.count)

    func acceptance(_ source: DraftSource) -> Double { confirmed[source.rawValue] / tested[source.rawValue] }

    /// Drafts from `source` worth their rows when a row must bring at least `threshold` expected tokens.
    func limit(_ source: DraftSource, threshold: Double) -> Int {
        let q = acceptance(source)
        var k = 0, reached = q
        while k < Self.most, reached > threshold { k += 1; reached *= q }
        return k
    }

    /// After each pass: `drafted` tokens from `source` of which the first `kept` were confirmed. A
    /// pass without drafts moves every record back toward the prior, so a sequence that stopped
    /// drafting tries again (the text may have turned to copying).
    /// Whether drafts of some source would be worth a row.
    func anyWorth(threshold: Double) -> Bool { DraftSource.allCases.contains { limit($0, threshold: threshold) > 0 } }

    mutating func record(_ source: DraftSource?, drafted: Int, confirmed kept: Int) {
        guard let source, drafted > 0 else {
            for s in confirmed.indices { (confirmed[s], tested[s]) = (0.9 * confirmed[s] + 0.1, 0.9 * tested[s] + 0.2) }
            return
        }
        let s = source.rawValue
        confirmed[s] = 0.8 * confirmed[s] + Double(kept)
        tested[s] = 0.8 * tested[s] + Double(min(drafted, kept + 1))
    }
}

/// What a decode pass costs, learned from the passes themselves: a part every pass pays (streaming
/// the weights) and a part per row (the arithmetic, measured on prompt slices, where it dominates).
/// A draft row pays off when its expected tokens per cost beat the pass's without drafts. The
/// averages fall fast and rise slowly: they follow what a pass costs when the cores are not taken
/// by something else (a busy moment would otherwise look like a costly pass for a while).
struct DecodeCost: Equatable {
    /// Seconds per row and per pass, exponentially averaged; nil until measured.
    private(set) var perRow: Double?
    private(set) var fixed: Double?
    /// Set: the costs stay as given (tests, so how much is drafted does not depend on the machine).
    private(set) var isFrozen = false

    init() {}

    /// Costs that stay as given.
    static func frozen(perRow: Double, fixed: Double) -> DecodeCost {
        var cost = DecodeCost()
        (cost.perRow, cost.fixed, cost.isFrozen) = (perRow, fixed, true)
        return cost
    }

    /// A prompt slice of `rows` rows took `seconds`.
    mutating func recordPrefill(rows: Int, seconds: Double) {
        guard !isFrozen, rows >= 16, seconds > 0 else { return }
        perRow = Self.follow(perRow, seconds / Double(rows))
    }

    /// A decode pass of `rows` rows took `seconds`.
    mutating func recordDecode(rows: Int, seconds: Double) {
        guard !isFrozen, let perRow, rows > 0, seconds > 0 else { return }
        fixed = Self.follow(fixed, max(0, seconds - Double(rows) * perRow))
    }

    private static func follow(_ average: Double?, _ sample: Double) -> Double {
        guard let average else { return sample }
        return sample < average ? 0.5 * average + 0.5 * sample : 0.95 * average + 0.05 * min(sample, 2 * average)
    }

    /// The expected tokens a draft row must bring when `sequences` decode together: their tokens
    /// per second without drafts, times a row's cost. Until measured, a row is taken to cost half a
    /// one-row pass.
    func threshold(sequences: Int) -> Double {
        let s = Double(max(1, sequences))
        guard let perRow, let fixed, perRow > 0 else { return s / (s + 1) }
        return perRow * s / (fixed + perRow * s)
    }
}
