import SwitchboardCore
import Synchronization

/// What the two calls of a hedge tell the coordinator while they race.
enum RaceSignal: Sendable {
    /// The lane claimed the race with its first token (or an empty answer's finish).
    case won(Int)
    /// The lane's call ended (after winning, losing or failing).
    case finished(Int)
    /// The first call has been slow long enough: start the hedge.
    case hedgeDue
    /// The request's latency budget ran out.
    case deadline
}

/// The one decision two racing calls share: which of them answers. The first to claim wins.
final class RaceGate: Sendable {
    private let winner = Lock<Int?>(nil)

    func claim(_ lane: Int) -> Bool {
        winner.withLock { current in
            if current == nil { current = lane }
            return current == lane
        }
    }
}

/// One side of a hedge, as `Coordinator.consume` sees it (a class, like `EventSink`, so the
/// optional that every unhedged call carries is a plain pointer).
final class RaceLane: Sendable {
    let gate: RaceGate
    let lane: Int
    let signals: AsyncStream<RaceSignal>.Continuation

    init(gate: RaceGate, lane: Int, signals: AsyncStream<RaceSignal>.Continuation) {
        self.gate = gate; self.lane = lane; self.signals = signals
    }

    /// True when this lane may deliver (it won, now or before); the coordinator is told of a win.
    func claim() -> Bool {
        guard gate.claim(lane) else { return false }
        signals.yield(.won(lane))
        return true
    }
}

/// The racing calls' tasks, reachable from a cancellation handler.
final class RaceTasks: Sendable {
    private let tasks = Lock<[Int: Task<CallOutcome, Never>]>([:])

    func add(_ lane: Int, _ task: Task<CallOutcome, Never>) { tasks.withLock { $0[lane] = task } }
    func task(_ lane: Int) -> Task<CallOutcome, Never>? { tasks.withLock { $0[lane] } }
    var count: Int { tasks.withLock { $0.count } }

    func cancel(except kept: Int? = nil) {
        for (lane, task) in tasks.withLock({ $0 }) where lane != kept { task.cancel() }
    }
}
