/// What the optimizer saw of one provider since its previous run.
public struct ProviderObservation: Sendable, Hashable {
    public var calls: Int
    public var failures: Int
    /// Median latency over the metrics window, when there were calls.
    public var latency: Duration?
    /// Requests waiting for a slot when observed.
    public var queueLength: Int

    public init(calls: Int, failures: Int, latency: Duration? = nil, queueLength: Int = 0) {
        self.calls = calls; self.failures = failures; self.latency = latency; self.queueLength = queueLength
    }
    public var errorRate: Double { calls > 0 ? Double(failures) / Double(calls) : 0 }
}

/// The optimizer's output: score weights and concurrency limits per provider.
public struct OptimizerPlan: Sendable, Hashable {
    public var weights: [ProviderID: Double]
    public var concurrencyLimits: [ProviderID: Int]
    public init(weights: [ProviderID: Double] = [:], concurrencyLimits: [ProviderID: Int] = [:]) {
        self.weights = weights; self.concurrencyLimits = concurrencyLimits
    }
}

/// The optimizer's math, without the actor: AIMD concurrency limits and latency/error-based weights.
public struct OptimizerModel: Sendable, Hashable {
    public struct Configuration: Sendable, Hashable {
        public var minimumConcurrency: Int
        public var maximumConcurrency: Int
        /// Slots added after a healthy window.
        public var additiveIncrease: Int
        /// Factor the limit is multiplied by after a bad window.
        public var multiplicativeDecrease: Double
        /// Error rate over a window above which it counts as bad.
        public var errorThreshold: Double
        /// Latency above this multiple of the provider's baseline counts as a spike.
        public var latencySpikeFactor: Double
        /// Weight of a new window in the latency baseline.
        public var baselineAlpha: Double
        /// The lowest weight a provider can get (it is never scored to zero, so it can recover).
        public var minimumWeight: Double
        /// Weight of the newest window in the EWMA error rate and latency that weights come from.
        public var smoothing: Double

        public init(minimumConcurrency: Int = 1, maximumConcurrency: Int = 64, additiveIncrease: Int = 1,
                    multiplicativeDecrease: Double = 0.5, errorThreshold: Double = 0.1,
                    latencySpikeFactor: Double = 2, baselineAlpha: Double = 0.1, minimumWeight: Double = 0.1,
                    smoothing: Double = 0.5) {
            self.minimumConcurrency = max(1, minimumConcurrency)
            self.maximumConcurrency = max(self.minimumConcurrency, maximumConcurrency)
            self.additiveIncrease = max(1, additiveIncrease)
            self.multiplicativeDecrease = min(max(multiplicativeDecrease, 0.05), 0.95)
            self.errorThreshold = min(max(errorThreshold, 0), 1); self.latencySpikeFactor = max(1, latencySpikeFactor)
            self.baselineAlpha = min(max(baselineAlpha, 0.001), 1); self.minimumWeight = min(max(minimumWeight, 0), 1)
            self.smoothing = min(max(smoothing, 0.001), 1)
        }
    }

    public var configuration: Configuration
    /// Slow-moving latency reference per provider, what spikes are measured against.
    public private(set) var baselines: [ProviderID: Duration] = [:]
    /// EWMA over runs of each provider's error rate and median latency.
    public private(set) var smoothedErrorRates: [ProviderID: Double] = [:]
    public private(set) var smoothedLatencies: [ProviderID: Duration] = [:]

    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// AIMD: a window with errors above the threshold or a latency spike halves the limit (by the
    /// configured factor); a healthy window with calls adds a slot. Always within the bounds.
    public func nextLimit(current: Int, observation: ProviderObservation, baseline: Duration?) -> Int {
        let c = configuration
        let current = min(max(current, c.minimumConcurrency), c.maximumConcurrency)
        guard observation.calls > 0 else { return current }
        var spiked = false
        if let latency = observation.latency, let baseline, baseline > .zero {
            spiked = latency.seconds > baseline.seconds * c.latencySpikeFactor
        }
        if observation.errorRate > c.errorThreshold || spiked {
            let reduced = Int((Double(current) * c.multiplicativeDecrease).rounded(.down))
            return max(c.minimumConcurrency, reduced)
        }
        return min(c.maximumConcurrency, current + c.additiveIncrease)
    }

    /// A score multiplier in minimumWeight...1: healthier and faster (relative to the fastest provider
    /// observed) is higher.
    public func weight(errorRate: Double, latency: Duration?, fastest: Duration?) -> Double {
        let health = 1 - min(max(errorRate, 0), 1)
        var speed = 1.0
        if let latency, let fastest, latency > .zero {
            speed = 0.5 + 0.5 * min(1, fastest.seconds / latency.seconds)
        }
        return max(configuration.minimumWeight, health * speed)
    }

    /// One optimizer run over every observed provider.
    public mutating func plan(observations: [ProviderID: ProviderObservation],
                              currentLimits: [ProviderID: Int]) -> OptimizerPlan {
        var plan = OptimizerPlan()
        let s = configuration.smoothing
        for (provider, observation) in observations where observation.calls > 0 {
            let error = observation.errorRate
            smoothedErrorRates[provider] = smoothedErrorRates[provider].map { $0 * (1 - s) + error * s } ?? error
            if let latency = observation.latency {
                smoothedLatencies[provider] = smoothedLatencies[provider].map { .seconds($0.seconds * (1 - s) + latency.seconds * s) } ?? latency
            }
        }
        let fastest = smoothedLatencies.values.filter { $0 > .zero }.min()
        for (provider, observation) in observations {
            let baseline = baselines[provider]
            let current = currentLimits[provider] ?? configuration.minimumConcurrency
            plan.concurrencyLimits[provider] = nextLimit(current: current, observation: observation, baseline: baseline)
            plan.weights[provider] = weight(errorRate: smoothedErrorRates[provider] ?? 0, latency: smoothedLatencies[provider],
                                            fastest: fastest)
            if let latency = observation.latency, observation.calls > 0 {
                let a = configuration.baselineAlpha
                baselines[provider] = baseline.map { .seconds($0.seconds * (1 - a) + latency.seconds * a) } ?? latency
            }
        }
        return plan
    }
}
