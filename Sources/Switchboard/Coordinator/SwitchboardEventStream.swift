/// The events of one request (or one session turn), in order, ending with exactly one terminal event.
/// Ending the iteration early cancels the request: breaking out of the `for await` loop, dropping the
/// iterator, or cancelling the task that iterates. The provider's call is cancelled and its slot
/// returned at once.
///
/// A plain `AsyncStream` cannot promise that: a `break` leaves its producer running until it finishes
/// on its own, because the producer keeps the stream alive. Here each iterator holds a handle whose
/// end cancels the producer.
package struct SwitchboardEventStream: AsyncSequence, Sendable {
    package typealias Element = SwitchboardEvent
    package typealias Failure = Never

    private let events: AsyncStream<SwitchboardEvent>
    private let producer: Task<Void, Never>

    /// Runs `produce` in a task feeding a stream buffered by `bufferingPolicy`; the stream finishes
    /// when `produce` returns.
    init(bufferingPolicy: AsyncStream<SwitchboardEvent>.Continuation.BufferingPolicy = .unbounded,
         _ produce: @escaping @Sendable (AsyncStream<SwitchboardEvent>.Continuation) async -> Void) {
        let (events, continuation) = AsyncStream.makeStream(of: SwitchboardEvent.self, bufferingPolicy: bufferingPolicy)
        let producer = Task {
            await produce(continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in producer.cancel() }
        self.events = events
        self.producer = producer
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<SwitchboardEvent>.Iterator
        let handle: CancelOnRelease

        package mutating func next() async -> SwitchboardEvent? { await base.next() }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: events.makeAsyncIterator(), handle: CancelOnRelease(producer))
    }
}

/// Cancels a task when the last reference goes away (a dropped iterator).
package final class CancelOnRelease: Sendable {
    private let cancel: @Sendable () -> Void
    init<Success, Failure>(_ task: Task<Success, Failure>) { cancel = { task.cancel() } }
    deinit { cancel() }
}
