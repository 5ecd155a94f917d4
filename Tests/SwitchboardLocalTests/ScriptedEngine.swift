import Synchronization
import SwitchboardCore
import SwitchboardInference
@testable import SwitchboardLocal

/// A stand-in engine: one token per prompt word, echoed back upper-cased ("a b" → " A", " B"), then
/// numbered filler up to maxTokens, with the request's stop sequences applied like the real engine's.
/// It queues nothing (the provider must not either: admission is the engine's), records how many
/// generations overlap, and, given a gate, holds every generation before its first token until it opens.
final class ScriptedEngine: LocalInferenceEngine {
    let contextLength: Int
    let tokenDelay: Duration
    /// Text sent as one more token after the last one (like an engine releasing held-back text).
    let tail: String?
    let gate: Gate?
    private let counters = Mutex((running: 0, peak: 0, started: 0))

    init(contextLength: Int = 512, tokenDelay: Duration = .microseconds(200), tail: String? = nil, gate: Gate? = nil) {
        self.contextLength = contextLength; self.tokenDelay = tokenDelay; self.tail = tail; self.gate = gate
    }

    /// The owner each generation was tagged with, in order, and the owners forgotten.
    private let tags = Mutex((owners: [UInt64?](), forgotten: [UInt64]()))
    var owners: [UInt64?] { tags.withLock { $0.owners } }
    var forgotten: [UInt64] { tags.withLock { $0.forgotten } }

    func generate(_ prompt: BuiltPrompt, owner: UInt64?, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?,
                  cancellation: CancellationFlag, into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) async throws
        -> TokenUsage {
        tags.withLock { $0.owners.append(owner) }
        return try await generate(prompt, maxTokens: maxTokens, sampling: sampling, schema: schema, cancellation: cancellation, into: output)
    }

    func forgetPrefixes(owner: UInt64) async { tags.withLock { $0.forgotten.append(owner) } }

    var peakConcurrency: Int { counters.withLock { $0.peak } }
    var generationsStarted: Int { counters.withLock { $0.started } }
    var generationsRunning: Int { counters.withLock { $0.running } }

    func tokenCount(of text: String, parseSpecial: Bool) -> Int { text.split(separator: " ").count }

    func generate(_ prompt: BuiltPrompt, maxTokens: Int, sampling: SamplingOptions, schema: GenerationSchema?,
                  cancellation: CancellationFlag, into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) async throws
        -> TokenUsage {
        let words = prompt.text.split(separator: " ").map { " " + $0.uppercased() }
        counters.withLock { $0.running += 1; $0.started += 1; $0.peak = max($0.peak, $0.running) }
        defer { counters.withLock { $0.running -= 1 } }
        if let gate { await gate.wait() }
        var stops = StopSequenceMatcher(stopSequences: sampling.stopSequences)
        for index in 0..<maxTokens {
            try await Task.sleep(for: tokenDelay)
            if cancellation.isCancelled { throw CancellationError() }
            let emission = stops.feed(index < words.count ? words[index] : " t\(index)")
            if !emission.text.isEmpty { output.yield(.token(emission.text)) }
            if emission.isStopped {
                let usage = TokenUsage(promptTokens: prompt.tokenCount, completionTokens: index + 1)
                output.yield(.finished(.stop, usage))
                return usage
            }
        }
        let rest = stops.feed(tail ?? "").text + stops.finish()
        if !rest.isEmpty { output.yield(.token(rest)) }
        let usage = TokenUsage(promptTokens: prompt.tokenCount, completionTokens: maxTokens)
        output.yield(.finished(.length, usage))
        return usage
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
