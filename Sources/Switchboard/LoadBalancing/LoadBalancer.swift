import SwitchboardCore

/// Concurrency slots per provider. A request takes a slot before it calls a provider and gives it back
/// afterwards, on every path. When all slots are taken it waits, ordered by priority then arrival,
/// up to the queue's length limit (`overloaded` beyond) and its timeout (`queueTimeout`). Limits can
/// change at runtime (the optimizer's AIMD).
///
/// Fast path: when a slot is free and nobody waits, `acquire` and `release` take and return it in a
/// lock-protected table (`SlotTable`) without a hop to this actor. Waiting, timeouts, cancellation,
/// limit changes and hand-over to waiters run on the actor, as before.
public actor LoadBalancer {
    /// A held slot; hand it back with `release(_:)`.
    public struct Lease: Sendable, Hashable {
        public let provider: ProviderID
        public let id: UInt64
        /// Time spent waiting for the slot.
        public let queueWait: Duration
    }

    public struct Status: Sendable, Hashable {
        public var inFlight: Int
        public var queued: Int
        public var limit: Int
        public init(inFlight: Int, queued: Int, limit: Int) { self.inFlight = inFlight; self.queued = queued; self.limit = limit }
    }

    /// Lifetime counts of how slot requests ended.
    public struct Statistics: Sendable, Hashable {
        /// Slots handed out at once.
        public var immediate = 0
        /// Slots handed out after a wait.
        public var afterWaiting = 0
        public var overloaded = 0
        public var timedOut = 0
        /// Waiters whose task was cancelled while queued.
        public var cancelled = 0
    }

    /// Receives (provider, queued, in flight, capacity); in the runtime, `MetricsActor.recordQueue`.
    public typealias QueueReporter = @Sendable (ProviderID, Int, Int, Int) async -> Void

    struct Waiter: Sendable {
        var continuation: CheckedContinuation<Result<Lease, SwitchboardError>, Never>
        var enqueuedAt: Duration
        var timer: Task<Void, Never>?
    }

    private let slots: SlotTable
    /// Waiters per provider (actor state; their number is mirrored in `slots`).
    private var queues: [ProviderID: WaitQueue<Waiter>] = [:]
    private let defaultLimit: Int
    private let policy: QueuePolicy
    private let clock: ClockSource
    private let reporter: QueueReporter?
    private let reportInterval: Duration

    /// Lifetime counts of how slot requests ended.
    public var statistics: Statistics { slots.statistics }

    /// - Parameters:
    ///   - reportInterval: the least time between reports to `reporter`; `flushReports()` forces one.
    public init(defaultLimit: Int = 4, limits: [ProviderID: Int] = [:], queuePolicy: QueuePolicy = QueuePolicy(),
                clock: some Clock<Duration> = ContinuousClock(), reportInterval: Duration = .milliseconds(50),
                reporter: QueueReporter? = nil) {
        self.init(defaultLimit: defaultLimit, limits: limits, queuePolicy: queuePolicy, clockSource: ClockSource(clock),
                  reportInterval: reportInterval, reporter: reporter)
    }

    /// On a clock source shared with the coordinator, whose times `release(_:at:)` then takes.
    init(defaultLimit: Int, limits: [ProviderID: Int], queuePolicy: QueuePolicy, clockSource: ClockSource,
         reportInterval: Duration = .milliseconds(50), reporter: QueueReporter?) {
        self.defaultLimit = max(1, defaultLimit); policy = queuePolicy; clock = clockSource
        self.reporter = reporter; self.reportInterval = reportInterval
        slots = SlotTable(defaultLimit: self.defaultLimit, limits: limits)
    }

    /// Takes a slot on `provider`, waiting if none is free.
    /// - Throws: `.overloaded` when the wait queue is full, `.queueTimeout` after the queue timeout,
    ///   `.cancelled` when the task is cancelled while waiting.
    public nonisolated func acquire(_ provider: ProviderID, priority: Priority = .normal) async throws(SwitchboardError) -> Lease {
        if Task.isCancelled { throw .cancelled }
        if let id = slots.takeFreeSlot(provider) { return Lease(provider: provider, id: id, queueWait: .zero) }
        return try await acquireWaiting(provider, priority: priority).get()
    }

    /// A slot on `provider` if one is free now and nobody waits for it; nil otherwise (a hedge call is
    /// opportunistic: it never queues behind other requests).
    public nonisolated func tryAcquire(_ provider: ProviderID) -> Lease? {
        slots.takeFreeSlot(provider).map { Lease(provider: provider, id: $0, queueWait: .zero) }
    }

    /// Gives a slot back and hands it to the next waiter, if any. Releasing twice is harmless.
    public nonisolated(nonsending) func release(_ lease: Lease) async {
        await release(lease, at: nil)
    }

    /// `release`, with the time now on this balancer's clock source when the caller just read it.
    nonisolated(nonsending) func release(_ lease: Lease, at now: Duration?) async {
        switch slots.release(lease.id, on: lease.provider) {
        case .ignored: return
        case .freed: break
        case .freedWithWaiters: await grantWaiters(on: lease.provider)
        }
        await reportIfDue(at: now)
    }

    /// Sets the number of slots of `provider` (at least 1); waiters are admitted at once if it grew.
    /// Calls in flight above a lowered limit finish normally.
    public func setLimit(_ limit: Int, for provider: ProviderID) {
        slots.state.withLock { state in state.withLane(provider) { $0.limit = max(1, limit) } }
        grantWaiters(on: provider)
    }

    public func limit(for provider: ProviderID) -> Int { slots.counts(provider)?.limit ?? defaultLimit }

    public func status(of provider: ProviderID) -> Status {
        guard let counts = slots.counts(provider) else { return Status(inFlight: 0, queued: 0, limit: defaultLimit) }
        return Status(inFlight: counts.inFlight, queued: counts.waiting, limit: counts.limit)
    }

    public func statuses() -> [ProviderID: Status] {
        slots.allCounts().mapValues { Status(inFlight: $0.inFlight, queued: $0.waiting, limit: $0.limit) }
    }

    /// Slots held across all providers.
    public var totalInFlight: Int { slots.allCounts().values.reduce(0) { $0 + $1.inFlight } }
    /// Waiters across all providers.
    public var totalQueued: Int { slots.allCounts().values.reduce(0) { $0 + $1.waiting } }

    /// Reports every provider's queue now.
    public func flushReports() async {
        guard let reporter else { return }
        let lanes = slots.state.withLock { state in
            state.lastReport = clock.now()
            return state.lanes
        }
        for (provider, counts) in zip(lanes.ids, lanes.values) { await reporter(provider, counts.waiting, counts.inFlight, counts.limit) }
    }

    private nonisolated(nonsending) func reportIfDue(at now: Duration?) async {
        guard reporter != nil, slots.claimReport(at: now ?? clock.now(), interval: reportInterval) else { return }
        await flushReports()
    }

    /// The slow path: no free slot (or waiters ahead), so wait in the provider's queue.
    private func acquireWaiting(_ provider: ProviderID, priority: Priority) async -> Result<Lease, SwitchboardError> {
        let enqueuedAt = clock.now()
        let id = slots.state.withLock { $0.nextLeaseID() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Lease, SwitchboardError>, Never>) in
                enqueue(continuation, id: id, provider: provider, priority: priority, enqueuedAt: enqueuedAt)
            }
        } onCancel: {
            Task { await self.expire(id, on: provider, with: .cancelled) }
        }
        await reportIfDue(at: nil)
        return result
    }

    /// Runs on the actor, inside the continuation: checks again under the lock (a slot may have been
    /// freed since the fast path looked), then serves at once, refuses, or queues the waiter.
    private func enqueue(_ continuation: CheckedContinuation<Result<Lease, SwitchboardError>, Never>, id: UInt64,
                         provider: ProviderID, priority: Priority, enqueuedAt: Duration) {
        if Task.isCancelled {
            slots.state.withLock { $0.statistics.cancelled += 1 }
            continuation.resume(returning: .failure(.cancelled)); return
        }
        var timer: Task<Void, Never>?
        if let timeout = policy.timeout {
            let clock = clock
            timer = Task { [weak self] in
                guard (try? await clock.sleep(for: timeout)) != nil else { return }
                await self?.expire(id, on: provider, with: .queueTimeout(provider))
            }
        }
        let waiter = Waiter(continuation: continuation, enqueuedAt: enqueuedAt, timer: timer)
        let maxQueueLength = policy.maxQueueLength
        enum Decision { case serve, overloaded, queued }
        let decision = slots.state.withLock { state -> Decision in
            state.withLane(provider) { counts in
                if counts.hasFreeSlot { counts.inFlight += 1; return .serve }
                guard counts.waiting < maxQueueLength,
                      queues[provider, default: WaitQueue(capacity: maxQueueLength)]
                        .enqueue(waiter, id: id, priority: priority) else { return .overloaded }
                counts.waiting += 1
                return .queued
            }
        }
        switch decision {
        case .queued: return
        case .serve:
            timer?.cancel()
            slots.state.withLock { state in state.statistics.immediate += 1; state.outstanding.insert(id) }
            continuation.resume(returning: .success(Lease(provider: provider, id: id, queueWait: clock.now() - enqueuedAt)))
        case .overloaded:
            timer?.cancel()
            slots.state.withLock { $0.statistics.overloaded += 1 }
            continuation.resume(returning: .failure(.overloaded(provider)))
        }
    }

    /// Hands free slots of `provider` to its waiters, highest priority first.
    private func grantWaiters(on provider: ProviderID) {
        let granted = slots.state.withLock { state -> [(UInt64, Waiter)] in
            var granted: [(UInt64, Waiter)] = []
            state.withLane(provider) { counts in
                while counts.inFlight < counts.limit, let (id, waiter) = queues[provider]?.dequeue() {
                    counts.inFlight += 1
                    counts.waiting -= 1
                    granted.append((id, waiter))
                }
            }
            state.statistics.afterWaiting += granted.count
            for (id, _) in granted { state.outstanding.insert(id) }
            return granted
        }
        let now = clock.now()
        for (id, waiter) in granted {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: .success(Lease(provider: provider, id: id, queueWait: now - waiter.enqueuedAt)))
        }
    }

    /// Removes a waiter that timed out or was cancelled; no-op if it already got its slot.
    private func expire(_ id: UInt64, on provider: ProviderID, with error: SwitchboardError) {
        let removed = slots.state.withLock { state -> Waiter? in
            guard let waiter = queues[provider]?.remove(id: id) else { return nil }
            state.withLane(provider) { $0.waiting -= 1 }
            if error == .cancelled { state.statistics.cancelled += 1 } else { state.statistics.timedOut += 1 }
            return waiter
        }
        guard let removed else { return }
        removed.timer?.cancel()
        removed.continuation.resume(returning: .failure(error))
    }
}
