import Foundation
import SwitchboardCore

/// Collects call records per provider: lifetime counters, a sliding window of recent calls (percentiles
/// computed on demand) and queue figures. Recording is O(1); snapshots are computed when asked for.
///
/// Two ways in: `record(_:)` (a message, awaited) and `submit(_:)` (fire and forget, the coordinator's
/// hot path: appended to an inbox that the actor drains in batches and always before it reads its figures).
public actor MetricsActor {
    private struct ProviderState {
        var window: CallWindow
        var requests = 0, successes = 0, failures = 0, cancellations = 0, fallbacksIn = 0, fallbacksOut = 0
        var queueLength = 0, inFlight = 0, capacity = 0
        var hedgesStarted = 0, hedgesWon = 0, hedgeLosersCancelled = 0
        /// The window's statistics, kept until the next call is recorded (snapshots sort the window).
        var statistics: CallWindow.Statistics?
        init(windowSize: Int) { window = CallWindow(capacity: windowSize) }
    }

    private let windowSize: Int
    private let clock: ClockSource
    private let healthPolicy: HealthPolicy
    private var providers: [ProviderID: ProviderState] = [:]
    private var subscribers: [Int: AsyncStream<MetricsSnapshot>.Continuation] = [:]
    private var nextSubscriberID = 0
    private var publishPending = false
    private var isFinished = false
    private nonisolated let inbox: MetricsInbox

    /// - Parameter batchSize: submitted records kept before the actor is asked to take them.
    public init(windowSize: Int = 512, clock: some Clock<Duration> = ContinuousClock(),
                healthPolicy: HealthPolicy = HealthPolicy(), batchSize: Int = 256) {
        self.windowSize = max(1, windowSize)
        inbox = MetricsInbox(batchSize: batchSize)
        self.clock = ClockSource(clock)
        self.healthPolicy = healthPolicy
    }

    deinit {
        for continuation in subscribers.values { continuation.finish() }
    }

    package func record(_ record: CallRecord) {
        drainInbox()  // keeps records in the order they were made
        apply(record)
    }

    /// Records `record` without waiting for the actor: no suspension, no hop. Every read of the metrics
    /// (`snapshot()`, `metrics(for:)`, `snapshots()`, `exportJSON()`) includes it.
    package nonisolated func submit(_ record: CallRecord) {
        if inbox.append(record) { Task { await self.drainInbox() } }
    }

    /// Applies every submitted record now.
    public func drainInbox() {
        for record in inbox.take() { apply(record) }
    }

    private func apply(_ record: CallRecord) {
        update(record.provider) { state in
            state.window.append(record)
            state.statistics = nil
            state.requests += 1
            switch record.outcome {
            case .success: state.successes += 1
            case .failure: state.failures += 1
            case .cancelled: state.cancellations += 1
            }
            if record.isFallback { state.fallbacksIn += 1 }
        }
    }

    /// A failed call of `from` was followed by a call of `to`.
    public func recordFallback(from: ProviderID, to: ProviderID) {
        update(from) { $0.fallbacksOut += 1 }
    }

    /// A hedge call to `hedge` was started beside a slow call to `primary`; `winner` is whichever
    /// produced the answer (nil when both failed). The loser's call was cancelled.
    public func recordHedge(primary: ProviderID, hedge: ProviderID, winner: ProviderID?) {
        update(hedge) { state in
            state.hedgesStarted += 1
            if winner == hedge { state.hedgesWon += 1 }
        }
        if let winner { update(winner == hedge ? primary : hedge) { $0.hedgeLosersCancelled += 1 } }
    }

    public func recordQueue(_ provider: ProviderID, queued: Int, inFlight: Int, capacity: Int) {
        update(provider) { state in
            state.queueLength = max(0, queued); state.inFlight = max(0, inFlight); state.capacity = max(0, capacity)
        }
    }

    public func snapshot() -> MetricsSnapshot {
        drainInbox()
        var result: [ProviderID: ProviderMetrics] = [:]
        result.reserveCapacity(providers.count)
        for id in providers.keys { result[id] = metrics(id) }
        return MetricsSnapshot(providers: result, takenAt: clock.now())
    }

    public func metrics(for provider: ProviderID) -> ProviderMetrics? {
        drainInbox()
        return metrics(provider)
    }

    /// The current snapshot first, then one after changes (coalesced: a slow reader sees the newest).
    /// Finishes when `finish()` is called or the actor goes away.
    public func snapshots() -> AsyncStream<MetricsSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: MetricsSnapshot.self, bufferingPolicy: .bufferingNewest(1))
        guard !isFinished else { continuation.finish(); return stream }
        let id = nextSubscriberID
        nextSubscriberID += 1
        subscribers[id] = continuation
        inbox.setHasSubscribers(true)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        continuation.yield(snapshot())
        return stream
    }

    /// Ends every snapshot stream; later `snapshots()` calls return finished streams.
    public func finish() {
        isFinished = true
        let finishing = subscribers.values
        subscribers.removeAll()
        inbox.setHasSubscribers(false)
        for continuation in finishing { continuation.finish() }
    }

    public func exportJSON() -> String {
        MetricsExport(snapshot()).json()
    }

    // MARK: - Private

    private func update(_ provider: ProviderID, _ change: (inout ProviderState) -> Void) {
        change(&providers[provider, default: ProviderState(windowSize: windowSize)])
        schedulePublish()
    }

    private func metrics(_ id: ProviderID) -> ProviderMetrics? {
        guard let state = providers[id] else { return nil }
        let stats: CallWindow.Statistics
        if let cached = state.statistics {
            stats = cached
        } else {
            stats = state.window.statistics()
            providers[id]?.statistics = stats
        }
        let utilization = state.capacity > 0 ? Double(state.inFlight) / Double(state.capacity) : 0
        return ProviderMetrics(
            provider: id, requests: state.requests, successes: state.successes, failures: state.failures,
            cancellations: state.cancellations, fallbacksIn: state.fallbacksIn, fallbacksOut: state.fallbacksOut,
            successRate: stats.successRate, latency: stats.latency, timeToFirstToken: stats.timeToFirstToken,
            tokensPerSecond: stats.tokensPerSecond, queueLength: state.queueLength, inFlight: state.inFlight,
            capacity: state.capacity, utilization: utilization,
            health: healthPolicy.evaluate(stats, utilization: utilization),
            hedgesStarted: state.hedgesStarted, hedgesWon: state.hedgesWon, hedgesCancelled: state.hedgeLosersCancelled)
    }

    private func schedulePublish() {
        guard !subscribers.isEmpty, !publishPending else { return }
        publishPending = true
        Task { self.publish() }
    }

    private func publish() {
        publishPending = false
        guard !subscribers.isEmpty else { return }
        let current = snapshot()
        for continuation in subscribers.values { continuation.yield(current) }
    }

    private func removeSubscriber(_ id: Int) {
        subscribers[id] = nil
        inbox.setHasSubscribers(!subscribers.isEmpty)
    }
}
