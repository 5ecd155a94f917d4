/// One sequence's generation state between forward passes: the sampler, the recent-token window,
/// the streaming UTF-8 decoder, the stop matcher and, for structured output, the constrained decoder. Given the logits after the latest token, `step`
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
    private var constrained: ConstrainedDecoder?
    private(set) var generated: [Int32] = []

    /// - Parameters:
    ///   - room: context positions left after the prompt (bounds a constrained document's budget).
    ///   - vocabulary: every token's bytes, for `options.constraint` (built here when nil; callers
    ///     that run many constrained generations pass one built once per model).
    init(model: LanguageModel, prompt: [Int32], options: GenerationOptions, room: Int,
         vocabulary: TokenVocabulary? = nil) throws(InferenceError) {
        self.options = options
        tokenizer = model.tokenizer
        stopIDs = model.stopTokenIDs
        sampler = Sampler(configuration: options.sampler.sanitized)
        decoder = StreamingDecoder(tokenizer: model.tokenizer)
        stops = StopSequenceMatcher(stopSequences: options.stopSequences)
        recent = prompt.suffix(max(0, options.sampler.repetitionWindow))
        if let constraint = options.constraint {
            let tokens = vocabulary ?? TokenVocabulary(tokenizer: model.tokenizer, stopIDs: stopIDs)
            do { constrained = try ConstrainedDecoder(constraint: constraint, vocabulary: tokens, budget: min(options.maxTokens, room)) } catch {
                throw .constraint(error)
            }
        }
    }

    /// Samples from `logits` (the buffer may be modified) and advances. `room`: positions left in
    /// the context after this sequence's tokens so far; `elapsed` stamps emitted tokens.
    mutating func step(_ logits: UnsafeMutableBufferPointer<Float>, room: Int, elapsed: () -> Duration,
                       emit: (GeneratedToken) -> Void) throws(InferenceError) -> Step {
        if generated.count >= options.maxTokens { return .finished(.maxTokens) }
        let next: Int32
        if var decoder = constrained {
            // The document decides: only tokens that keep it valid and closable within the budget.
            let choice: ConstrainedDecoder.Choice
            do { choice = try decoder.choose(logits, sampler: &sampler, recent: recent) } catch { throw .constraint(error) }
            constrained = decoder
            guard case .token(let id) = choice else { return .finished(.endOfGeneration) }
            next = id
        } else {
            next = sampler.sample(logits, recent: recent)
        }
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

    /// Tokens likely to follow the last generated one (at most `limit`), for the model to verify,
    /// and where they came from: a prompt-lookup match, cut where the constraint would refuse it;
    /// failing that, the text the constraint forces next (jump-forward).
    func draft(prompt: [Int32], limit: Int) -> (tokens: [Int32], source: DraftSource?) {
        let match = PromptLookup().match(prompt: prompt, generated: generated, limit: limit)
        var tokens = match.tokens
        guard let constrained else { return (tokens, tokens.isEmpty ? nil : DraftSource(matchLength: match.length)) }
        tokens.removeSubrange(constrained.admissiblePrefix(of: tokens)...)
        if !tokens.isEmpty { return (tokens, DraftSource(matchLength: match.length)) }
        let forced = constrained.forcedBytes()
        guard !forced.isEmpty else { return ([], nil) }
        tokens = Array(tokenizer.encode(String(decoding: forced, as: UTF8.self), addBOS: false, parseSpecial: false).prefix(limit))
        tokens.removeSubrange(constrained.admissiblePrefix(of: tokens)...)
        return (tokens, tokens.isEmpty ? nil : .schema)
    }

    /// A constrained document that ran out of budget or context before it closed is an error, never
    /// a silently truncated document (unreachable while the decoder's budget reserve holds).
    func checkComplete(_ reason: FinishReason) throws(InferenceError) {
        if reason == .maxTokens || reason == .contextLength, let constrained, !constrained.automaton.canFinish {
            throw .constraint(.noAllowedToken("the budget ran out before the document closed"))
        }
    }

    /// Emits text still held back (an incomplete character or a possible stop string) when the
    /// sequence ends for a reason other than cancellation or a matched stop.
    mutating func flush(reason: FinishReason, elapsed: () -> Duration, emit: (GeneratedToken) -> Void) {
        guard reason != .cancelled, stops.matched == nil, let last = generated.last else { return }
        let rest = stops.feed(decoder.flush()).text + stops.finish()
        if !rest.isEmpty { emit(GeneratedToken(id: last, text: rest, elapsed: elapsed())) }
    }
}
