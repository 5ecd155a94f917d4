/// The synchronous token loop: prefill, then sample → emit → decode until a stop condition.
/// Free of tasks so it is tested directly; `LocalGenerator` runs it on its `InferenceThread`.
struct GenerationLoop {
    let session: InferenceSession
    let options: GenerationOptions
    /// Time since the generation started.
    let elapsed: () -> Duration
    let isCancelled: () -> Bool
    /// Token bytes for constrained decoding; built from the tokenizer when nil and needed.
    var vocabulary: TokenVocabulary? = nil

    /// Runs the whole generation for `prompt` (ids), calling `emit` for every token event. The
    /// session is reset first.
    func run(prompt: [Int32], emit: (GeneratedToken) -> Void) throws(InferenceError) -> GenerationSummary {
        let tokenizer = session.model.tokenizer
        let stopIDs = session.model.stopTokenIDs
        guard !prompt.isEmpty else { throw .emptyPrompt }
        guard prompt.count <= session.contextLength else {
            throw .contextLengthExceeded(limit: session.contextLength, requested: prompt.count)
        }
        session.reset()
        var sampler = Sampler(configuration: options.sampler.sanitized)
        var decoder = StreamingDecoder(tokenizer: tokenizer)
        var stops = StopSequenceMatcher(stopSequences: options.stopSequences)
        var recent = prompt.suffix(max(0, options.sampler.repetitionWindow))
        var generated: [Int32] = []
        var constrained = try makeDecoder(budget: min(options.maxTokens, session.contextLength - prompt.count))
        var logits = try session.prefill(prompt)
        let prefillEnd = elapsed()
        var firstToken: Duration = .zero
        var reason = FinishReason.maxTokens
        while true {
            if isCancelled() { reason = .cancelled; break }
            if generated.count >= options.maxTokens { reason = .maxTokens; break }
            let next: Int32
            if constrained == nil {
                next = sampler.sample(logits, recent: recent)
            } else {
                do throws(ConstraintError) {
                    let choice = try constrained?.choose(logits, sampler: &sampler, recent: recent)
                    next = if case .token(let id) = choice { id } else { stopIDs.min() ?? -1 }
                } catch { throw .constraint(error) }
            }
            if generated.isEmpty { firstToken = elapsed() }
            if stopIDs.contains(next) || next < 0 { reason = .endOfGeneration; break }
            generated.append(next)
            recent.append(next)
            if recent.count > options.sampler.repetitionWindow { recent.removeFirst() }
            let emission = stops.feed(decoder.append(next))
            emit(GeneratedToken(id: next, text: emission.text, elapsed: elapsed()))
            if let stop = emission.stop { reason = .stopSequence(stop); break }
            if generated.count >= options.maxTokens { reason = .maxTokens; break }
            if session.position >= session.contextLength { reason = .contextLength; break }
            logits = try session.decode(next)
        }
        if reason != .cancelled, case nil = stops.matched, let last = generated.last {
            let rest = stops.feed(decoder.flush()).text + stops.finish()
            if !rest.isEmpty { emit(GeneratedToken(id: last, text: rest, elapsed: elapsed())) }
        }
        let end = elapsed()
        if reason == .maxTokens || reason == .contextLength, let constrained, !constrained.automaton.canFinish {
            // Unreachable while the budget reserve holds; never hand back a truncated document silently.
            throw .constraint(.noAllowedToken("the budget ran out before the document closed"))
        }
        return GenerationSummary(finishReason: reason, promptTokens: prompt.count, completionTokens: generated.count,
                                 generatedIDs: generated, timeToFirstToken: firstToken, prefillDuration: prefillEnd,
                                 decodeDuration: generated.isEmpty ? .zero : end - firstToken)
    }

    /// The sequence's constrained decoder when the options ask for one.
    private func makeDecoder(budget: Int) throws(InferenceError) -> ConstrainedDecoder? {
        guard let constraint = options.constraint else { return nil }
        let vocabulary = vocabulary ?? TokenVocabulary(tokenizer: session.model.tokenizer, stopIDs: session.model.stopTokenIDs)
        do { return try ConstrainedDecoder(constraint: constraint, vocabulary: vocabulary, budget: budget) } catch {
            throw .constraint(error)
        }
    }
}
