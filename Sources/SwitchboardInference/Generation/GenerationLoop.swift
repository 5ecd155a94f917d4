/// The synchronous token loop: prefill, then sample → emit → decode until a stop condition.
/// Free of tasks so it is tested directly; `LocalGenerator` runs it on its `InferenceThread`.
struct GenerationLoop {
    let session: InferenceSession
    let options: GenerationOptions
    /// Time since the generation started.
    let elapsed: () -> Duration
    let isCancelled: () -> Bool

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
        var logits = try session.prefill(prompt)
        let prefillEnd = elapsed()
        var firstToken: Duration = .zero
        var reason = FinishReason.maxTokens
        while true {
            if isCancelled() { reason = .cancelled; break }
            if generated.count >= options.maxTokens { reason = .maxTokens; break }
            let next = sampler.sample(logits, recent: recent)
            if generated.isEmpty { firstToken = elapsed() }
            if stopIDs.contains(next) { reason = .endOfGeneration; break }
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
        return GenerationSummary(finishReason: reason, promptTokens: prompt.count, completionTokens: generated.count,
                                 generatedIDs: generated, timeToFirstToken: firstToken, prefillDuration: prefillEnd,
                                 decodeDuration: generated.isEmpty ? .zero : end - firstToken)
    }
}
