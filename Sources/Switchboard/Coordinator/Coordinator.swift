import Synchronization
import SwitchboardCore

/// The entry point: takes a request, picks the best provider for it and gets the answer, falling back
/// and retrying per policy.
///
/// One request: analyze (`RequestAnalyzer`) → cache lookup (`CacheActor`) → eligibility (privacy is a
/// hard rule) → scoring → for each candidate: take a slot (`LoadBalancer`) → `generate` → stream the
/// tokens → give the slot back → record (`MetricsActor`, breaker, estimate) → on failure retry with
/// jittered backoff or fall back → store the answer in the cache.
///
/// One concurrency model: a `Sendable` class whose mutable state is one lock (`CoordinatorState`), taken
/// in short synchronous sections and never across a suspension; each request runs on its caller's
/// task. Not an actor: queuing requests on an actor's executor cost a thread wake-up whenever two met
/// there (two callers reached 28,000 requests/s on one coordinator against 80,000–108,000 with one each,
/// `switchboard-bench route`), and an actor whose every method is `nonisolated` over a lock is two
/// models where one does the work.
public final class Coordinator: Sendable {
    public nonisolated let analyzer: RequestAnalyzer
    public nonisolated let metrics: MetricsActor
    public nonisolated let cache: CacheActor
    let embedders = EmbedderList()
    /// Slots and queues per provider (an app reads them through `metricsSnapshot()`).
    package nonisolated let loadBalancer: LoadBalancer
    /// Run through `adapt()` and `startAdapting(every:)`.
    package nonisolated let optimizer: Optimizer
    public nonisolated let configuration: SwitchboardConfiguration
    /// Where routing decisions are recorded, if the app asked for it.
    public nonisolated let audit: AuditTrail?

    let clock: ClockSource
    let deviceStateSource: any DeviceStateProviding
    /// Routing state, updated by requests on their own threads (`CoordinatorState`).
    let state: Lock<CoordinatorState>
    let eligibility: EligibilityPolicy

    /// - Parameters:
    ///   - providers: registered now; more can come with `register(_:)`.
    ///   - clock: drives backoff, deadlines, queue timeouts, breakers and (for the defaults made here)
    ///     the metrics and cache.
    ///   - deviceState: where the device's condition is read from: by default the operating system
    ///     (`SystemStateSource`, read at most every `stateRefreshInterval`); tests and servers that
    ///     do not care pass a `FixedDeviceState`.
    ///   - analyzer, metrics, cache: shared instances, or nil for fresh ones on `clock`.
    ///   - audit: records every routing decision (no text), or nil for none.
    public init(providers: [any Provider] = [], configuration: SwitchboardConfiguration = SwitchboardConfiguration(),
                clock: some Clock<Duration> = ContinuousClock(),
                deviceState: (any DeviceStateProviding)? = nil,
                analyzer: RequestAnalyzer? = nil, metrics: MetricsActor? = nil, cache: CacheActor? = nil,
                audit: AuditTrail? = nil) {
        self.audit = audit
        let metrics = metrics ?? MetricsActor(clock: clock)
        self.metrics = metrics
        self.analyzer = analyzer ?? RequestAnalyzer()
        self.cache = cache ?? CacheActor(clock: clock)
        self.configuration = configuration
        let source = ClockSource(clock)
        self.clock = source
        deviceStateSource = deviceState ?? SystemStateSource(refreshInterval: configuration.stateRefreshInterval, clock: clock)
        var initial = CoordinatorState(retryBudget: configuration.retryBudget, hedgeBudget: configuration.hedging.makeBudget(),
                                       random: SeededRandom(seed: configuration.seed))
        eligibility = EligibilityPolicy(privacy: configuration.privacy)
        // A provider that says how many requests it serves at once (a local engine's batch size) gets
        // that many slots unless the configuration names a limit for it.
        var limits = configuration.concurrency
        for provider in providers {
            if limits[provider.id] == nil, let preferred = provider.capabilities.maxConcurrency { limits[provider.id] = preferred }
        }
        let loadBalancer = LoadBalancer(
            defaultLimit: configuration.defaultConcurrency, limits: limits,
            queuePolicy: configuration.queue, clockSource: source,
            reporter: { provider, queued, inFlight, capacity in
                await metrics.recordQueue(provider, queued: queued, inFlight: inFlight, capacity: capacity)
            })
        self.loadBalancer = loadBalancer
        optimizer = Optimizer(configuration: configuration.optimizer, metrics: metrics, loadBalancer: loadBalancer,
                              clock: clock)
        for provider in providers {
            initial.registry.register(provider, breaker: configuration.breaker)
        }
        state = Lock(initial)
    }

    /// Adds a provider (replacing one with the same id, whose breaker and estimates start over). As
    /// at `init`, a provider that says how many requests it serves at once gets that many slots
    /// unless the configuration names a limit for it.
    public func register(_ provider: any Provider) async {
        let breaker = configuration.breaker
        state.withLock { $0.registry.register(provider, breaker: breaker) }
        if configuration.concurrency[provider.id] == nil, let preferred = provider.capabilities.maxConcurrency {
            await loadBalancer.setLimit(preferred, for: provider.id)
        }
    }

    public func unregister(_ id: ProviderID) { state.withLock { $0.registry.unregister(id) } }

    /// Asks every provider that keeps per-session state (`SessionStateHolder`) to drop `owner`'s.
    package func forgetSession(_ owner: UInt64) async {
        let holders = state.withLock { $0.registry.entries.compactMap { $0.provider as? any SessionStateHolder } }
        for holder in holders { await holder.forgetSession(owner) }
    }

    /// Registered providers, in registration order.
    public var providerIDs: [ProviderID] { state.withLock { $0.registry.order } }

    /// Accepted / completed / failed / cancelled requests so far.
    public func requestCounts() -> RequestCounts { state.withLock { $0.counts } }

    /// The provider's circuit breaker state now, or nil if it is not registered.
    public func breakerState(for id: ProviderID) -> CircuitBreaker.State? {
        let now = clock.now()
        return state.withLock { $0.registry[id]?.breaker.currentState(at: now) }
    }

    /// What routing has learned about a provider's speed and errors.
    package func estimate(for id: ProviderID) -> LatencyEstimate? { state.withLock { $0.registry[id]?.estimate } }

    /// A metrics snapshot with the load balancer's latest queue figures in it.
    public func metricsSnapshot() async -> MetricsSnapshot {
        await loadBalancer.flushReports()
        return await metrics.snapshot()
    }

    /// The optimizer's score weights now in use.
    public func weights() -> [ProviderID: Double] {
        state.withLock { Dictionary(uniqueKeysWithValues: $0.registry.entries.map { ($0.id, $0.weight) }) }
    }

    /// Answers `request` with the full text once generation has finished (the public calls are
    /// `respond(to:)`, which wrap this answer in a `Response`).
    package nonisolated func generate(_ request: GenerationRequest) async throws(SwitchboardError) -> GenerationResponse {
        // The analysis is a pure function: done here, on the caller's thread, so callers analyze in
        // parallel and the coordinator is entered once, already knowing it.
        let analysis = Self.validate(request) == nil ? analyze(request) : nil
        state.withLock { $0.counts.accepted += 1 }
        let result = await execute(request, events: nil, analysis: analysis)
        settle(result)
        switch consume result {
        case .success(let response): return response
        case .failure(let error): throw error
        }
    }

    /// Runs the optimizer once: weights from metrics go to scoring, concurrency limits to the load balancer.
    @discardableResult
    public func adapt() async -> OptimizerPlan {
        let plan = await optimizer.adapt()
        apply(plan)
        return plan
    }

    /// Runs the optimizer every `interval` on the injected clock until `stopAdapting()`.
    public func startAdapting(every interval: Duration) async {
        await optimizer.start(every: interval) { [weak self] plan in self?.apply(plan) }
    }

    public func stopAdapting() async { await optimizer.stop() }

    func apply(_ plan: OptimizerPlan) { state.withLock { $0.registry.applyWeights(plan.weights) } }

    nonisolated func settle(_ result: Result<GenerationResponse, SwitchboardError>) {
        state.withLock { state in
            switch result {
            case .success(let response):
                state.counts.completed += 1
                if response.cached { state.counts.cacheHits += 1 }
            case .failure(.cancelled): state.counts.cancelled += 1
            case .failure: state.counts.failed += 1
            }
        }
    }
}
