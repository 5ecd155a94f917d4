import Synchronization

/// Set once when a generation's consumer goes away; read by the inference thread before every token.
/// An atomic rather than task cancellation: the thread runs no task, and the flag is set synchronously
/// by the stream's termination handler, however busy the cooperative pool is.
package final class CancellationFlag: Sendable {
    package init() {}

    private let flag = Atomic<Bool>(false)

    package var isCancelled: Bool { flag.load(ordering: .acquiring) }

    package func cancel() { flag.store(true, ordering: .releasing) }
}
