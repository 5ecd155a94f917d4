import Synchronization
import SwitchboardCore
@testable import SwitchboardLocal

/// A stand-in engine: one token per prompt word, echoed back upper-cased ("a b" → " A", " B"), then
/// numbered filler up to maxTokens. It records how many generations overlap.
final class ScriptedEngine: LocalInferenceEngine {
    let contextLength: Int
    let tokenDelay: Duration
    /// Text sent as one more token after the last one (like an engine releasing held-back text).
    let tail: String?
    private let counters = Mutex((running: 0, peak: 0, started: 0))

    init(contextLength: Int = 512, tokenDelay: Duration = .microseconds(200), tail: String? = nil) {
        self.contextLength = contextLength; self.tokenDelay = tokenDelay; self.tail = tail
    }

    var peakConcurrency: Int { counters.withLock { $0.peak } }
    var generationsStarted: Int { counters.withLock { $0.started } }

    func tokenCount(of text: String, parseSpecial: Bool) -> Int { text.split(separator: " ").count }

    func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions)
        -> AsyncThrowingStream<LocalEngineEvent, any Error> {
        let words = prompt.text.split(separator: " ").map { " " + $0.uppercased() }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LocalEngineEvent.self)
        let task = Task { [self, tokenDelay, tail] in
            counters.withLock { $0.running += 1; $0.started += 1; $0.peak = max($0.peak, $0.running) }
            defer { counters.withLock { $0.running -= 1 } }
            for index in 0..<maxTokens {
                do { try await Task.sleep(for: tokenDelay) } catch { continuation.finish(throwing: error); return }
                continuation.yield(.token(index < words.count ? words[index] : " t\(index)"))
            }
            if let tail { continuation.yield(.token(tail)) }
            continuation.yield(.finished(.length, TokenUsage(promptTokens: prompt.tokenCount, completionTokens: maxTokens)))
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// Opens a door once: loads wait on it when a test wants to observe the loading state.
actor Gate {
    private var open = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    func wait() async {
        if open { return }
        await withCheckedContinuation { waiters.append($0) }
    }
    func release() {
        open = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

/// Hands out `engine` after the gate (if any) opens, counting loads.
final class ScriptedLoader: LocalEngineLoading {
    let engine: ScriptedEngine
    let gate: Gate?
    private let loads = Mutex(0)
    init(engine: ScriptedEngine = ScriptedEngine(), gate: Gate? = nil) { self.engine = engine; self.gate = gate }
    var loadCount: Int { loads.withLock { $0 } }

    func load(_ file: VerifiedModelFile, progress: @escaping @Sendable (Double) -> Void) async throws -> any LocalInferenceEngine {
        loads.withLock { $0 += 1 }
        progress(0.5)
        if let gate { await gate.wait() }
        progress(1)
        return engine
    }
}

/// Device state a test can change.
actor ChangingDeviceState: DeviceStateProviding {
    var state = DeviceState.nominal
    func set(_ pressure: DeviceState.MemoryPressure) { state.memoryPressure = pressure }
    func current() -> DeviceState { state }
}
