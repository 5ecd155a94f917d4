import Synchronization
import SwitchboardCore

/// The coordinator's mutable routing state: providers with their breakers and estimates, request
/// counts, the retry and hedge budgets, the seeded randomness and the device state.
///
/// It sits behind one `Mutex` (the coordinator's one concurrency model, see `Coordinator`): every use
/// is a short synchronous section (no `await` inside), so concurrent requests run on their own threads
/// and only ever wait for each other's few-instruction updates.
struct CoordinatorState {
    var registry = ProviderRegistry()
    var counts = RequestCounts()
    var retryBudget: RetryBudget
    var hedgeBudget: RetryBudget
    var random: SeededRandom
    var deviceState: DeviceState = .nominal
    var deviceStateReadAt: Duration?
    var nextRequestID: UInt64 = 0
}

/// The coordinator's bookkeeping: every accepted request ends exactly once, as completed, failed or
/// cancelled, so `accepted == completed + failed + cancelled + inProgress` always holds.
public struct RequestCounts: Sendable, Hashable, CustomStringConvertible {
    public internal(set) var accepted = 0
    public internal(set) var completed = 0
    public internal(set) var failed = 0
    public internal(set) var cancelled = 0
    /// Completed requests served from the cache.
    public internal(set) var cacheHits = 0

    public init() {}

    public var finished: Int { completed + failed + cancelled }
    public var inProgress: Int { accepted - finished }

    public var description: String {
        "accepted \(accepted) = completed \(completed) + failed \(failed) + cancelled \(cancelled)"
            + (inProgress == 0 ? "" : " + in progress \(inProgress)")
    }
}
