import SwitchboardCore

/// Concurrency slots per provider. A request takes a slot before it calls a provider and gives it back
/// afterwards, on every path. When all slots are taken it waits, ordered by priority then arrival,
/// up to the queue's length limit (`overloaded` beyond) and its timeout (`queueTimeout`). Limits can
/// change at runtime (the optimizer's AIMD).
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

    /// A reference, so the hot path mutates it in place without copying its queue.
    final class Lane {
        var limit: Int
        var inFlight = 0
        var queue: WaitQueue<Waiter>
        init(limit: Int, queue: WaitQueue<Waiter>) { self.limit = limit; self.queue = queue }

        /// Takes a slot if one is free and nobody waits ahead.
        func takeFreeSlot() -> Bool {
            guard inFlight < limit, queue.isEmpty else { return false }
            inFlight += 1
            return true
        }
    }

    private var lanes: [ProviderID: Lane] = [:]
    private var outstanding: Set<UInt64> = []
    private var nextID: UInt64 = 0
    public private(set) var statistics = Statistics()
    private let defaultLimit: Int
    private let policy: QueuePolicy
    private let clock: ClockSource
    private let reporter: QueueReporter?
    private let reportInterval: Duration
    private var lastReport: Duration?

    /// - Parameters:
    ///   - reportInterval: the least time between reports to `reporter`; `flushReports()` forces one.
    public init(defaultLimit: Int = 4, limits: [ProviderID: Int] = [:], queuePolicy: QueuePolicy = QueuePolicy(),
                clock: some Clock<Duration> = ContinuousClock(), reportInterval: Duration = .milliseconds(50),
                reporter: QueueReporter? = nil) {
        self.defaultLimit = max(1, defaultLimit); policy = queuePolicy; self.clock = ClockSource(clock)
        self.reporter = reporter; self.reportInterval = reportInterval
        for (provider, limit) in limits {
            lanes[provider] = Lane(limit: max(1, limit), queue: WaitQueue(capacity: queuePolicy.maxQueueLength))
        }
    }

    /// Takes a slot on `provider`, waiting if none is free.
    /// - Throws: `.overloaded` when the wait queue is full, `.queueTimeout` after the queue timeout,
    ///   `.cancelled` when the task is cancelled while waiting.
    public func acquire(_ provider: ProviderID, priority: Priority = .normal) async throws(SwitchboardError) -> Lease {
        if Task.isCancelled { throw .cancelled }
        nextID &+= 1
        let id = nextID
        let lane = self.lane(provider)
        if lane.takeFreeSlot() {
            statistics.immediate += 1
            outstanding.insert(id)
            return Lease(provider: provider, id: id, queueWait: .zero)
        }
        guard lane.queue.count < policy.maxQueueLength else {
            statistics.overloaded += 1
            throw .overloaded(provider)
        }
        let enqueuedAt = clock.now()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Lease, SwitchboardError>, Never>) in
                if Task.isCancelled {
                    statistics.cancelled += 1
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
                if !lane.queue.enqueue(waiter, id: id, priority: priority) {
                    timer?.cancel()
                    statistics.overloaded += 1
                    continuation.resume(returning: .failure(.overloaded(provider)))
                }
            }
        } onCancel: {
            Task { await self.expire(id, on: provider, with: .cancelled) }
        }
        await reportIfDue()
        return try result.get()
    }

    /// A slot on `provider` if one is free now and nobody waits for it; nil otherwise (a hedge call is
    /// opportunistic: it never queues behind other requests).
    public func tryAcquire(_ provider: ProviderID) -> Lease? {
        let lane = self.lane(provider)
        guard lane.queue.isEmpty, lane.takeFreeSlot() else { return nil }
        nextID &+= 1
        statistics.immediate += 1
        outstanding.insert(nextID)
        return Lease(provider: provider, id: nextID, queueWait: .zero)
    }

    /// Gives a slot back and hands it to the next waiter, if any. Releasing twice is harmless.
    public func release(_ lease: Lease) async {
        guard outstanding.remove(lease.id) != nil else { return }
        let lane = self.lane(lease.provider)
        lane.inFlight -= 1
        if !lane.queue.isEmpty { grantWaiters(on: lease.provider) }
        await reportIfDue()
    }

    /// Sets the number of slots of `provider` (at least 1); waiters are admitted at once if it grew.
    /// Calls in flight above a lowered limit finish normally.
    public func setLimit(_ limit: Int, for provider: ProviderID) {
        lane(provider).limit = max(1, limit)
        grantWaiters(on: provider)
    }

    public func limit(for provider: ProviderID) -> Int { lanes[provider]?.limit ?? defaultLimit }

    public func status(of provider: ProviderID) -> Status {
        guard let lane = lanes[provider] else { return Status(inFlight: 0, queued: 0, limit: defaultLimit) }
        return Status(inFlight: lane.inFlight, queued: lane.queue.count, limit: lane.limit)
    }

    public func statuses() -> [ProviderID: Status] {
        lanes.mapValues { Status(inFlight: $0.inFlight, queued: $0.queue.count, limit: $0.limit) }
    }

    /// Slots held across all providers.
    public var totalInFlight: Int { lanes.values.reduce(0) { $0 + $1.inFlight } }
    /// Waiters across all providers.
    public var totalQueued: Int { lanes.values.reduce(0) { $0 + $1.queue.count } }

    /// Reports every provider's queue now.
    public func flushReports() async {
        guard let reporter else { return }
        lastReport = clock.now()
        for (provider, lane) in lanes { await reporter(provider, lane.queue.count, lane.inFlight, lane.limit) }
    }

    private func reportIfDue() async {
        guard reporter != nil else { return }
        let now = clock.now()
        if let lastReport, now - lastReport < reportInterval { return }
        await flushReports()
    }

    private func lane(_ provider: ProviderID) -> Lane {
        if let lane = lanes[provider] { return lane }
        let lane = Lane(limit: defaultLimit, queue: WaitQueue(capacity: policy.maxQueueLength))
        lanes[provider] = lane
        return lane
    }

    private func grantWaiters(on provider: ProviderID) {
        let lane = self.lane(provider)
        while lane.inFlight < lane.limit, let (id, waiter) = lane.queue.dequeue() {
            lane.inFlight += 1
            statistics.afterWaiting += 1
            outstanding.insert(id)
            waiter.timer?.cancel()
            let wait = clock.now() - waiter.enqueuedAt
            waiter.continuation.resume(returning: .success(Lease(provider: provider, id: id, queueWait: wait)))
        }
    }

    /// Removes a waiter that timed out or was cancelled; no-op if it already got its slot.
    private func expire(_ id: UInt64, on provider: ProviderID, with error: SwitchboardError) {
        guard let waiter = lanes[provider]?.queue.remove(id: id) else { return }
        waiter.timer?.cancel()
        if error == .cancelled { statistics.cancelled += 1 } else { statistics.timedOut += 1 }
        waiter.continuation.resume(returning: .failure(error))
    }
}
