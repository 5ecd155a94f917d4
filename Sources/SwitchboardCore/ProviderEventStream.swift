/// What `Provider.generate` returns: one call's events in order, ending with `.finished` or an error.
///
/// A provider that streams wraps an `AsyncThrowingStream` (`init(_:)`). A provider whose whole answer
/// is known when it is asked (a scripted or replayed answer, a non-streaming API's reply already in
/// hand) passes it with `init(events:thenFailing:)`: no buffer, no producer task, no suspension per
/// event. That matters on the runtime's hot path: a stream's `next()` costs about half a microsecond
/// even when its element is ready, which for an instant four-event answer was a quarter or more of the
/// whole request (`Docs/Performance.md` § Runtime overhead).
public struct ProviderEventStream: AsyncSequence, Sendable {
    public typealias Element = ProviderEvent
    public typealias Failure = any Error

    enum Source: Sendable {
        case stream(AsyncThrowingStream<ProviderEvent, any Error>)
        case events([ProviderEvent], ending: ProviderError?)
    }

    let source: Source

    /// Events as the provider produces them.
    public init(_ stream: AsyncThrowingStream<ProviderEvent, any Error>) { source = .stream(stream) }

    /// An answer known in full: `events` in order, then `error` thrown if there is one (a stream that
    /// fails after some tokens), else the end. Include `.finished` unless the answer is truncated.
    public init(events: [ProviderEvent], thenFailing error: ProviderError? = nil) {
        source = .events(events, ending: error)
    }

    /// A call that fails before any event.
    public static func failing(_ error: ProviderError) -> ProviderEventStream {
        ProviderEventStream(events: [], thenFailing: error)
    }

    /// The whole answer, when the provider had it in hand (`init(events:thenFailing:)`): a consumer
    /// may read it in a plain loop instead of iterating; nil for a live stream.
    public var readyEvents: (events: [ProviderEvent], ending: ProviderError?)? {
        if case .events(let events, let ending) = source { (events, ending) } else { nil }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .stream(let stream): AsyncIterator(state: .stream(stream.makeAsyncIterator()))
        case .events(let events, let ending): AsyncIterator(state: .events(events, next: 0, ending: ending))
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        enum State {
            case stream(AsyncThrowingStream<ProviderEvent, any Error>.AsyncIterator)
            case events([ProviderEvent], next: Int, ending: ProviderError?)
            case done
        }

        var state: State

        public mutating func next() async throws -> ProviderEvent? {
            try await next(isolation: nil)
        }

        /// Runs on the caller's isolation: no hop per event.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> ProviderEvent? {
            switch state {
            case .stream(var iterator):
                let event = try await iterator.next(isolation: actor)
                state = event == nil ? .done : .stream(iterator)
                return event
            case .events(let events, let index, let ending):
                if index < events.count {
                    state = .events(events, next: index + 1, ending: ending)
                    return events[index]
                }
                state = .done
                if let ending { throw ending }
                return nil
            case .done:
                return nil
            }
        }
    }
}
