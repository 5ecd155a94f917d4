import SwitchboardCore

/// Turns metrics into routing adjustments: per-provider score weights (from error rate and latency)
/// and concurrency limits (AIMD), which it applies to the load balancer. The math is
/// `OptimizerModel`; this actor gathers its inputs and runs it on demand or periodically.
public actor Optimizer {
    private var model: OptimizerModel
    private let metrics: MetricsActor
    private let loadBalancer: LoadBalancer
    private let clock: ClockSource
    /// Lifetime (requests, failures) per provider at the previous run, to observe one window at a time.
    private var previousTotals: [ProviderID: (requests: Int, failures: Int)] = [:]
    private var periodic: Task<Void, Never>?
    public private(set) var lastPlan: OptimizerPlan?
    public private(set) var runs = 0

    public init(configuration: OptimizerModel.Configuration = .init(), metrics: MetricsActor, loadBalancer: LoadBalancer,
                clock: some Clock<Duration> = ContinuousClock()) {
        model = OptimizerModel(configuration: configuration)
        self.metrics = metrics; self.loadBalancer = loadBalancer; self.clock = ClockSource(clock)
    }

    isolated deinit { periodic?.cancel() }

    /// The weights of the last run (empty before the first).
    public var weights: [ProviderID: Double] { lastPlan?.weights ?? [:] }

    /// One run: observe each provider since the previous run, compute the plan, set the limits.
    @discardableResult
    public func adapt() async -> OptimizerPlan {
        await loadBalancer.flushReports()
        let snapshot = await metrics.snapshot()
        var observations: [ProviderID: ProviderObservation] = [:]
        var limits: [ProviderID: Int] = [:]
        for (id, figures) in snapshot.providers {
            let previous = previousTotals[id] ?? (0, 0)
            previousTotals[id] = (figures.requests, figures.failures)
            observations[id] = ProviderObservation(
                calls: figures.requests - previous.requests, failures: figures.failures - previous.failures,
                latency: figures.latency.count > 0 ? figures.latency.p50 : nil, queueLength: figures.queueLength)
            limits[id] = await loadBalancer.limit(for: id)
        }
        let plan = model.plan(observations: observations, currentLimits: limits)
        for (id, limit) in plan.concurrencyLimits { await loadBalancer.setLimit(limit, for: id) }
        lastPlan = plan
        runs += 1
        return plan
    }

    /// Runs `adapt()` every `interval` on the injected clock, handing each plan to `onPlan`, until
    /// `stop()` (a second call replaces the first schedule).
    public func start(every interval: Duration, onPlan: @escaping @Sendable (OptimizerPlan) async -> Void) {
        periodic?.cancel()
        let clock = clock
        let interval = max(interval, .milliseconds(1))
        periodic = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self else { return }
                let plan = await self.adapt()
                await onPlan(plan)
            }
        }
    }

    public func stop() {
        periodic?.cancel()
        periodic = nil
    }
}
