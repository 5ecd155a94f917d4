/// The reference generation path: one sequence on an `InferenceSession`, prefill, then sample → emit →
/// decode until a stop condition (`SequenceDecoder`, the same per-token step the batch loop runs).
/// Synchronous and free of tasks, so it reads top to bottom; the kernels and `BatchedGenerator` are
/// tested against it. Applications generate through `BatchedGenerator` (capacity 1 for one stream).
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
        guard !prompt.isEmpty else { throw .emptyPrompt }
        guard prompt.count <= session.contextLength else {
            throw .contextLengthExceeded(limit: session.contextLength, requested: prompt.count)
        }
        session.reset()
        var sequence = try SequenceDecoder(model: session.model, prompt: prompt, options: options,
                                           room: session.contextLength - prompt.count, vocabulary: vocabulary)
        var logits = try session.prefill(prompt)
        let prefillEnd = elapsed()
        var firstToken: Duration = .zero
        var reason = FinishReason.maxTokens
        while true {
            if isCancelled() { reason = .cancelled; break }
            if sequence.generated.isEmpty { firstToken = elapsed() }
            switch try sequence.step(logits, room: session.contextLength - session.position, elapsed: elapsed, emit: emit) {
            case .finished(let why):
                reason = why
            case .next(let id):
                logits = try session.decode(id)
                continue
            }
            break
        }
        sequence.flush(reason: reason, elapsed: elapsed, emit: emit)
        try sequence.checkComplete(reason)
        let end = elapsed()
        let generated = sequence.generated
        return GenerationSummary(finishReason: reason, promptTokens: prompt.count, completionTokens: generated.count,
                                 generatedIDs: generated, timeToFirstToken: firstToken, prefillDuration: prefillEnd,
                                 decodeDuration: generated.isEmpty ? .zero : end - firstToken)
    }
}
