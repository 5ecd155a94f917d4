/// Generates text with one `InferenceSession`. Generations are serialized by the actor; each runs
/// synchronously inside it (the forward pass never hops between tasks) and checks for cancellation
/// between tokens, so cancelling the consumer, or dropping the stream, stops it within one token.
public actor LocalGenerator {
    public nonisolated let model: LanguageModel
    private let session: InferenceSession
    private let now: @Sendable () -> Duration
    /// The summary of the most recent finished generation.
    public private(set) var lastSummary: GenerationSummary?

    /// - Parameter clock: measures token timings (inject a test clock for determinism).
    public init<C: Clock & Sendable>(model: LanguageModel, contextLength: Int? = nil, threads: Int = 2,
                                     clock: C = ContinuousClock()) where C.Duration == Duration {
        self.model = model
        session = InferenceSession(model: model, contextLength: contextLength, threads: threads)
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
        let events = events(ids: ids, options: options)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: GeneratedToken.self, bufferingPolicy: .bufferingOldest(max(1, options.maxTokens) + 2))
        let task = Task {
            do {
                for try await event in events {
                    if case .token(let token) = event { continuation.yield(token) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Streams token events followed by one `.finished(summary)` event.
    public nonisolated func events(prompt: String, options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<GenerationEvent, any Error> {
        events(ids: model.tokenizer.encode(prompt, addBOS: options.addBOS, parseSpecial: options.parseSpecial), options: options)
    }

    /// Streams token events for the prompt `ids` followed by one `.finished(summary)` event. The
    /// buffer holds at most maxTokens + 2 events, all a generation can produce.
    public nonisolated func events(ids: [Int32], options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: GenerationEvent.self, bufferingPolicy: .bufferingOldest(max(1, options.maxTokens) + 2))
        let task = Task {
            do {
                let summary = try await self.run(ids: ids, options: options) { continuation.yield(.token($0)) }
                continuation.yield(.finished(summary))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Runs one generation to completion on the actor (synchronously: no suspension inside).
    private func run(ids: [Int32], options: GenerationOptions, emit: (GeneratedToken) -> Void) throws(InferenceError) -> GenerationSummary {
        let start = now()
        let clock = now
        let loop = GenerationLoop(session: session, options: options, elapsed: { clock() - start }, isCancelled: { Task.isCancelled })
        let summary = try loop.run(prompt: ids, emit: emit)
        lastSummary = summary
        return summary
    }
}
