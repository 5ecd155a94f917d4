import Synchronization
import SwitchboardCore

/// The coordinator's mutable routing state: providers with their breakers and estimates, request
/// counts, the retry and hedge budgets, the seeded randomness and the device state.
///
/// It sits behind one `Mutex` instead of the actor's executor: every use is a short synchronous
/// section (no `await` inside), so concurrent requests run on their own threads and only ever wait
/// for each other's few-instruction updates. Queuing whole requests on the actor cost a thread
/// wake-up per collision: two callers reached 28,000 requests/s against 80,000–108,000 with a
/// coordinator each (`switchboard-bench route`, `Docs/Performance.md`).
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
