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
