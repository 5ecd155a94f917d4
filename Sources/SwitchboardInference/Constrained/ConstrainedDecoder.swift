/// Chooses each token of one sequence under a `JSONConstraint`. It owns that sequence's automaton
/// state (a batched engine keeps one decoder per sequence) and the token budget: a token is allowed
/// when its bytes continue a valid document and the tokens left after it can still close that
/// document, one byte per token at worst. Once the document is complete the sequence ends.
///
/// Greedy decoding checks candidates in descending logit order (the top 8, 64, 512, then a scan of
/// the rest) and stops at the first allowed one, so a step usually costs one heap pass over the
/// logits and a few automaton steps. Sampling masks every disallowed token first.
struct ConstrainedDecoder {
    enum Choice: Equatable { case token(Int32), finish }

    private(set) var automaton: JSONAutomaton
    let vocabulary: TokenVocabulary
    /// Tokens this sequence may generate in all.
    let budget: Int
    private(set) var used = 0
    /// The document's whitespace style so far (for jump-forward drafts).
    private(set) var spacing = JSONSpacing()

    init(constraint: JSONConstraint, vocabulary: TokenVocabulary, budget: Int) throws(ConstraintError) {
        automaton = JSONAutomaton(constraint)
        self.vocabulary = vocabulary
        self.budget = budget
        if !constraint.prefix.isEmpty, !automaton.feed(constraint.prefix) {
            throw .invalidPrefix("\(constraint.prefix.count) bytes that are not the start of a valid document")
        }
        spacing.feed(constraint.prefix)
        guard automaton.closingCost <= budget else { throw .budgetTooSmall(needed: automaton.closingCost, budget: budget) }
    }

    /// The state after `id`, if `id` is allowed next.
    func trial(_ id: Int32) -> JSONAutomaton? {
        if vocabulary.stopIDs.contains(id) { return automaton.canFinish ? automaton : nil }
        let bytes = vocabulary.bytes(of: id)
        guard !bytes.isEmpty else { return nil }
        var state = automaton
        guard state.feed(bytes), state.closingCost <= budget - used - 1 else { return nil }
        return state
    }

    /// How many leading `ids` the document allows in a row from here (a draft's usable part).
    func admissiblePrefix(of ids: [Int32]) -> Int {
        var decoder = self
        for (n, id) in ids.enumerated() {
            guard !vocabulary.stopIDs.contains(id), let state = decoder.trial(id) else { return n }
            decoder.automaton = state
            decoder.used += 1
        }
        return ids.count
    }

    /// The bytes the document continues with whatever the model picks (`JSONAutomaton.forcedBytes`).
    func forcedBytes(limit: Int = 32) -> [UInt8] { automaton.forcedBytes(limit: limit, spacing: spacing) }

    /// Picks the next token from `logits` (modified in place) with `sampler`, and advances.
    mutating func choose(_ logits: UnsafeMutableBufferPointer<Float>, sampler: inout Sampler,
                         recent: some Collection<Int32>) throws(ConstraintError) -> Choice {
        if automaton.isFinished { return .finish }
        let config = sampler.configuration
        let picked: (id: Int32, state: JSONAutomaton)?
        if config.temperature == 0 || config.topK == 1 {
            sampler.applyRepetitionPenalty(logits, recent: recent)
            picked = greedy(logits, sampler: &sampler)
        } else {
            picked = masked(logits, sampler: &sampler, recent: recent)
        }
        guard let picked else { throw .noAllowedToken("after \(used) tokens") }
        if vocabulary.stopIDs.contains(picked.id) { return .finish }
        automaton = picked.state
        spacing.feed(vocabulary.bytes(of: picked.id))
        used += 1
        return .token(picked.id)
    }

    private func greedy(_ logits: UnsafeMutableBufferPointer<Float>, sampler: inout Sampler) -> (id: Int32, state: JSONAutomaton)? {
        let values = UnsafeBufferPointer(logits)
        var checked = 0
        for k in [8, 64, 512] where checked < values.count {
            let count = sampler.selectTop(min(k, values.count), from: values)
            for i in checked..<count {
                let id = sampler.candidates[i].id
                if let state = trial(id) { return (id, state) }
            }
            checked = count
        }
        // Rare (a forced byte the model ranks low): the best allowed token of the whole vocabulary.
        var best: (id: Int32, state: JSONAutomaton)?
        var bestLogit = -Float.infinity
        for i in 0..<values.count where values[i] > bestLogit || (best == nil && !values[i].isNaN) {
            if let state = trial(Int32(i)) { best = (Int32(i), state); bestLogit = values[i] }
        }
        return best
    }

    private func masked(_ logits: UnsafeMutableBufferPointer<Float>, sampler: inout Sampler,
                        recent: some Collection<Int32>) -> (id: Int32, state: JSONAutomaton)? {
        var any = false
        for i in 0..<logits.count {
            if trial(Int32(i)) == nil { logits[i] = -.infinity } else { any = true }
        }
        guard any else { return nil }
        let id = sampler.sample(logits, recent: recent)
        return trial(id).map { (id, $0) }
    }
}
