import SwitchboardCore

/// An answer as it is generated, in the shape of FoundationModels' `ResponseStream`: an async
/// sequence of snapshots, each holding everything generated so far (not the new piece), then
/// `collect()` for the finished `Response` with its routing facts.
///
/// ```swift
/// let stream = switchboard.streamResponse(to: "Tell me about Paris.")
/// for try await snapshot in stream { render(snapshot.content) }
/// let answer = try await stream.collect()   // provider, privacy, usage, …
/// ```
///
/// - Snapshots are cumulative, so a consumer that lags skips intermediate ones and loses no text.
///   When a provider fails after part of the answer was shown and the next one must start over
///   (`RoutingEvent.resumed` with `.restarted`), the next snapshot is empty and the text grows again.
/// - Where Switchboard differs: routing (the analysis, the provider chosen, fallbacks, resumes,
///   hedges) and, in a session with tools, the tool calls and their results come on their own
///   sequence, `events`, never mixed into the text.
/// - Ending the iteration early (a `break`, or cancelling the iterating task) cancels the request;
///   `collect()` then throws. So does dropping a stream that nobody iterates or collects. Failures end
///   the iteration with the error (`SwitchboardError`, or `StructuredResponseError` for a typed
///   answer); `collect()` throws the same error.
public struct ResponseStream<Content: Generable>: AsyncSequence, Sendable {
    /// Everything generated so far: the text, or for a typed answer the value the partial JSON holds.
    public struct Snapshot: Sendable {
        public var content: Content.PartiallyGenerated
        public var rawContent: GeneratedContent
    }

    public typealias Element = Snapshot
    public typealias Failure = any Error

    /// What routing did for this answer, in order. Buffered (the oldest 1,024 kept, far more than a
    /// request's attempts and tool rounds make), so an app that never reads it loses nothing else.
    public let events: AsyncStream<RoutingEvent>
    private let snapshots: AsyncThrowingStream<Snapshot, any Error>
    private let producer: Task<Result<Response<Content>, any Error>, Never>
    /// Held by every copy of the stream and by its iterators: the last one gone cancels the request.
    private let lifetime: CancelOnRelease

    /// Follows `source` (one request's, or one session turn's, events). `snapshot` turns the text so
    /// far into a snapshot (nil: nothing to show yet); `finish` turns the completed response into the
    /// answer (throwing if it is not valid); `failure` maps a routing failure to the error thrown.
    package init(_ source: SwitchboardEventStream, snapshot: @escaping @Sendable (String) -> Snapshot?,
                 finish: @escaping @Sendable (GenerationResponse) throws -> Response<Content>,
                 failure: @escaping @Sendable (SwitchboardError) -> any Error) {
        // Snapshots are cumulative: only the newest one matters to a consumer that lags.
        let (snapshots, output) = AsyncThrowingStream.makeStream(of: Snapshot.self, bufferingPolicy: .bufferingNewest(1))
        let (events, routing) = AsyncStream.makeStream(of: RoutingEvent.self, bufferingPolicy: .bufferingOldest(1024))
        let producer = Task { () -> Result<Response<Content>, any Error> in
            var follower = Follower(output: output, snapshot: snapshot)
            var result: Result<Response<Content>, any Error> = .failure(failure(.cancelled))
            loop: for await event in source {
                switch event {
                case .token(let piece): follower.append(piece)
                case .completed(let response):
                    result = Result { try finish(response) }
                    if case .success(let answer) = result { follower.show(answer.rawContent) }
                    break loop
                case .failed(let error):
                    result = .failure(failure(error))
                    break loop
                case .analyzed, .fallback, .resumed(_, _, _, .restarted):
                    // A new request (a session's next round) or a provider starting the answer over.
                    follower.restart()
                    if let event = RoutingEvent(event) { routing.yield(event) }
                default:
                    if let event = RoutingEvent(event) { routing.yield(event) }
                }
            }
            // The result is decided before the streams end, so `collect()` after the loop has it.
            switch result {
            case .success: output.finish()
            case .failure(let error): output.finish(throwing: error)
            }
            routing.finish()
            return result
        }
        output.onTermination = { _ in producer.cancel() }
        self.snapshots = snapshots
        self.events = events
        self.producer = producer
        lifetime = CancelOnRelease(producer)
    }

    /// A stream that fails at once (a session turn that could not be built).
    package init(failing error: any Error) {
        self.init(SwitchboardEventStream { _ in }, snapshot: { _ in nil }, finish: { _ in throw error }, failure: { _ in error })
    }

    /// The finished answer, once generation has ended (at once if the iteration already saw the end).
    /// Cancelling the task that waits cancels the request.
    public func collect() async throws -> Response<Content> {
        let producer = producer
        return try await withTaskCancellationHandler { await producer.value } onCancel: { producer.cancel() }.get()
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Snapshot, any Error>.Iterator
        /// This iteration's: ending it cancels the request.
        let handle: CancelOnRelease
        let lifetime: CancelOnRelease

        public mutating func next() async throws -> Snapshot? { try await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: snapshots.makeAsyncIterator(), handle: CancelOnRelease(producer), lifetime: lifetime)
    }

    /// The text so far and the last snapshot shown, so the final one is not shown twice.
    private struct Follower {
        let output: AsyncThrowingStream<Snapshot, any Error>.Continuation
        let snapshot: @Sendable (String) -> Snapshot?
        var text = ""
        var shown: GeneratedContent?

        mutating func append(_ piece: String) {
            text += piece
            if let next = snapshot(text) { yield(next) }
        }

        mutating func restart() {
            text = ""
            if shown != nil, let empty = snapshot("") { yield(empty) }
            shown = nil
        }

        mutating func show(_ raw: GeneratedContent) {
            if raw != shown { yield(Snapshot(content: Content.partiallyGenerated(from: raw), rawContent: raw)) }
        }

        private mutating func yield(_ next: Snapshot) {
            shown = next.rawContent
            output.yield(next)
        }
    }
}

extension ResponseStream.Snapshot where Content == String {
    package init(text: String) { self.init(content: text, rawContent: .string(text)) }
}

extension ResponseStream where Content == String {
    /// A text answer's stream.
    package init(text source: SwitchboardEventStream) {
        self.init(source, snapshot: { Snapshot(text: $0) }, finish: { Response($0) }, failure: { $0 })
    }
}

extension ResponseStream {
    /// A typed answer's stream: snapshots of the partial JSON, the answer validated and decoded.
    package init(typed source: SwitchboardEventStream) {
        self.init(source, snapshot: { text in
            GeneratedContent.partial(json: text).map { Snapshot(content: Content.partiallyGenerated(from: $0), rawContent: $0) }
        }, finish: { try Response.decoding($0) }, failure: { StructuredResponseError.switchboard($0) })
    }
}
