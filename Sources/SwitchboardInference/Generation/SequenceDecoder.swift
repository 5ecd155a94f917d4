/// One sequence's generation state between forward passes: the sampler, the recent-token window,
/// the streaming UTF-8 decoder and the stop matcher. Given the logits after the latest token, `step`
/// picks the next token and says what to emit and whether the sequence is done. Shared by the
/// single-sequence `GenerationLoop` and the batched scheduler, so a token crosses one path.
struct SequenceDecoder {
    enum Step {
        /// Feed `id` to the model next (its text, if any, was emitted).
        case next(Int32)
        /// The sequence is finished; nothing more to feed.
        case finished(FinishReason)
    }

    let options: GenerationOptions
    private let tokenizer: Tokenizer
    private let stopIDs: Set<Int32>
    private var sampler: Sampler
    private var decoder: StreamingDecoder
    private var stops: StopSequenceMatcher
    private var recent: ArraySlice<Int32>
    private(set) var generated: [Int32] = []

    init(model: LanguageModel, prompt: [Int32], options: GenerationOptions) {
        self.options = options
        tokenizer = model.tokenizer
        stopIDs = model.stopTokenIDs
        sampler = Sampler(configuration: options.sampler.sanitized)
        decoder = StreamingDecoder(tokenizer: model.tokenizer)
        stops = StopSequenceMatcher(stopSequences: options.stopSequences)
        recent = prompt.suffix(max(0, options.sampler.repetitionWindow))
    }

    /// Samples from `logits` (the buffer may be modified) and advances. `room`: positions left in
    /// the context after this sequence's tokens so far; `elapsed` stamps emitted tokens.
    mutating func step(_ logits: UnsafeMutableBufferPointer<Float>, room: Int, elapsed: () -> Duration,
                       emit: (GeneratedToken) -> Void) -> Step {
        if generated.count >= options.maxTokens { return .finished(.maxTokens) }
        let next = sampler.sample(logits, recent: recent)
        if stopIDs.contains(next) { return .finished(.endOfGeneration) }
        generated.append(next)
        recent.append(next)
        if recent.count > options.sampler.repetitionWindow { recent.removeFirst() }
        let emission = stops.feed(decoder.append(next))
        emit(GeneratedToken(id: next, text: emission.text, elapsed: elapsed()))
        if let stop = emission.stop { return .finished(.stopSequence(stop)) }
        if generated.count >= options.maxTokens { return .finished(.maxTokens) }
        if room <= 0 { return .finished(.contextLength) }
        return .next(next)
    }

    /// Emits text still held back (an incomplete character or a possible stop string) when the
    /// sequence ends for a reason other than cancellation or a matched stop.
    mutating func flush(reason: FinishReason, elapsed: () -> Duration, emit: (GeneratedToken) -> Void) {
        guard reason != .cancelled, stops.matched == nil, let last = generated.last else { return }
        let rest = stops.feed(decoder.flush()).text + stops.finish()
        if !rest.isEmpty { emit(GeneratedToken(id: last, text: rest, elapsed: elapsed())) }
    }
}
