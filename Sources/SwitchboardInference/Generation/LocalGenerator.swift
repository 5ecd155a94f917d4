/// Generates text with one `InferenceSession`. The session lives on the generator's own
/// `InferenceThread`, which runs generations one at a time in FIFO order, so the seconds-long
/// synchronous forward passes never occupy a Swift cooperative-pool thread. Each stream's termination
/// (the consumer cancelled, or dropped the stream) sets a flag the loop checks before every token, so
/// generation stops within one token however busy the cooperative pool is.
public actor LocalGenerator {
    public nonisolated let model: LanguageModel
    private nonisolated let worker: InferenceThread<GeneratorState>
    private nonisolated let now: @Sendable () -> Duration

    /// The summary of the most recent finished generation. Waits for generations already started or
    /// queued, so reading it after dropping a stream sees that generation's (cancelled) summary.
    public var lastSummary: GenerationSummary? {
        get async { await worker.perform { $0.lastSummary } ?? nil }
    }

    /// - Parameter clock: measures token timings (inject a test clock for determinism).
    public init<C: Clock & Sendable>(model: LanguageModel, contextLength: Int? = nil, threads: Int = 2,
                                     clock: C = ContinuousClock()) where C.Duration == Duration {
        self.model = model
        worker = InferenceThread(name: "switchboard.generator") {
            GeneratorState(session: InferenceSession(model: model, contextLength: contextLength, threads: threads))
        }
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
    }

    /// Tokenizes `prompt` with the model's tokenizer and streams the generated tokens.
    public nonisolated func generate(prompt: String, options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<GeneratedToken, any Error> {
        let ids = model.tokenizer.encode(prompt, addBOS: options.addBOS, parseSpecial: options.parseSpecial)
        return generate(ids: ids, options: options)
    }

    /// Streams tokens generated after the prompt `ids`.
    public nonisolated func generate(ids: [Int32], options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<GeneratedToken, any Error> {
        events(ids: ids, options: options) { event in
            if case .token(let token) = event { token } else { nil }
        }
    }

    /// Streams token events followed by one `.finished(summary)` event.
    public nonisolated func events(prompt: String, options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<GenerationEvent, any Error> {
        events(ids: model.tokenizer.encode(prompt, addBOS: options.addBOS, parseSpecial: options.parseSpecial), options: options)
    }

    /// Streams token events for the prompt `ids` followed by one `.finished(summary)` event.
    public nonisolated func events(ids: [Int32], options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<GenerationEvent, any Error> {
        events(ids: ids, options: options) { $0 }
    }

    /// Streams the events of one generation through `transform`, called on the inference thread: nil
    /// skips an event; a thrown error stops the generation and ends the stream with it. The buffer
    /// holds maxTokens + 2 elements, all a generation can produce, so nothing is dropped.
    public nonisolated func events<Element: Sendable>(
        ids: [Int32], options: GenerationOptions,
        transform: @escaping @Sendable (GenerationEvent) throws -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Element.self, bufferingPolicy: .bufferingOldest(max(1, options.maxTokens) + 2))
        let cancellation = CancellationFlag()
        continuation.onTermination = { _ in cancellation.cancel() }
        let clock = now
        let accepted = worker.submit { state in
            // The consumer left while this generation was queued: skip it entirely.
            guard !cancellation.isCancelled else { return continuation.finish(throwing: CancellationError()) }
            var failure: (any Error)?
            do {
                let summary = try state.run(ids: ids, options: options, clock: clock, cancellation: cancellation) { token in
                    guard failure == nil else { return }
                    do {
                        if let element = try transform(.token(token)) { continuation.yield(element) }
                    } catch {
                        failure = error
                        cancellation.cancel()
                    }
                }
                if let failure { return continuation.finish(throwing: failure) }
                if let element = try transform(.finished(summary)) { continuation.yield(element) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        if !accepted { continuation.finish(throwing: InferenceError.cancelled) }
        return stream
    }
}

/// What the generator's inference thread owns: the session (KV cache, scratch) and the last summary.
final class GeneratorState {
    let session: InferenceSession
    var lastSummary: GenerationSummary?
    /// Token bytes for constrained decoding, built on the first constrained generation.
    var vocabulary: TokenVocabulary?

    init(session: InferenceSession) { self.session = session }

    /// Runs one generation to completion, synchronously, on the inference thread.
    func run(ids: [Int32], options: GenerationOptions, clock: @escaping () -> Duration, cancellation: CancellationFlag,
             emit: (GeneratedToken) -> Void) throws(InferenceError) -> GenerationSummary {
        let start = clock()
        if options.constraint != nil, vocabulary == nil {
            vocabulary = TokenVocabulary(tokenizer: session.model.tokenizer, stopIDs: session.model.stopTokenIDs)
        }
        let loop = GenerationLoop(session: session, options: options, elapsed: { clock() - start },
                                  isCancelled: { cancellation.isCancelled }, vocabulary: vocabulary)
        let summary = try loop.run(prompt: ids, emit: emit)
        lastSummary = summary
        return summary
    }
}
