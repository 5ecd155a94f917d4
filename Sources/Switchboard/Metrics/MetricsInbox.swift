import Synchronization
import SwitchboardCore

/// Call records handed to the `MetricsActor` without waiting for it (`MetricsActor.submit(_:)`): the
/// actor's mailbox for the hot path. The actor takes the whole batch before it answers any question, so
/// a snapshot always includes every record submitted before it was asked for. The lock is held only to
/// append or to swap the array out.
final class MetricsInbox: Sendable {
    private struct State {
        var records: [CallRecord] = []
        /// A task that will drain the inbox has been started and has not run yet.
        var drainScheduled = false
        /// Someone follows `snapshots()`: every record should reach the actor soon, not in batches.
        var hasSubscribers = false
    }

    /// Records kept before the actor is asked to take them (bounds the memory between reads).
    let batchSize: Int
    private let state = Lock(State())

    init(batchSize: Int) { self.batchSize = max(1, batchSize) }

    /// Adds `record`; returns true when the caller should start a drain (the batch is full, or a
    /// subscriber waits) and none is scheduled yet.
    func append(_ record: CallRecord) -> Bool {
        state.withLock { state in
            state.records.append(record)
            guard !state.drainScheduled, state.hasSubscribers || state.records.count >= batchSize else { return false }
            state.drainScheduled = true
            return true
        }
    }

    /// Everything submitted so far, in order; the inbox is empty afterwards.
    func take() -> [CallRecord] {
        state.withLock { state in
            state.drainScheduled = false
            guard !state.records.isEmpty else { return [] }
            var taken: [CallRecord] = []
            taken.reserveCapacity(batchSize)
            swap(&taken, &state.records)
            return taken
        }
    }

    func setHasSubscribers(_ value: Bool) { state.withLock { $0.hasSubscribers = value } }
}
