/// Exponentially weighted averages of one provider's observed speed and errors: O(1) to update on
/// every call, and what scoring predicts latency from.
package struct LatencyEstimate: Sendable, Hashable {
    /// Weight of the newest sample.
    package var alpha: Double
    /// Averaged in seconds (a `Duration` would be converted to and from on every update and score).
    private var timeToFirstTokenSeconds: Double?
    package var timeToFirstToken: Duration? { timeToFirstTokenSeconds.map { .seconds($0) } }
    package private(set) var tokensPerSecond: Double?
    /// 0...1, EWMA of failures (1) and successes (0).
    package private(set) var errorRate: Double
    package private(set) var samples: Int

    package init(alpha: Double = 0.2) {
        self.alpha = min(max(alpha, 0.001), 1)
        errorRate = 0; samples = 0
    }

    package mutating func recordSuccess(timeToFirstToken ttft: Duration?, generation: Duration, tokens: Int) {
        samples += 1
        errorRate = (1 - alpha) * errorRate
        if let ttft {
            let seconds = ttft.seconds
            timeToFirstTokenSeconds = timeToFirstTokenSeconds.map { $0 * (1 - alpha) + seconds * alpha } ?? seconds
        }
        let seconds = generation.seconds
        if tokens > 1, seconds > 0 {
            let rate = Double(tokens) / seconds
            tokensPerSecond = tokensPerSecond.map { $0 * (1 - alpha) + rate * alpha } ?? rate
        }
    }

    package mutating func recordFailure() {
        samples += 1
        errorRate = (1 - alpha) * errorRate + alpha
    }

    /// Predicted time to produce `tokens` tokens, from observations or else the provider's priors.
    package func predictedLatency(tokens: Int, priors: ProviderCapabilities) -> Duration {
        let ttft = timeToFirstToken ?? priors.expectedTimeToFirstToken
        return ttft + .seconds(Double(max(tokens, 0)) / rate(priors))
    }

    /// `predictedLatency` in seconds, as scoring uses it.
    package func predictedSeconds(tokens: Int, priors: ProviderCapabilities) -> Double {
        (timeToFirstTokenSeconds ?? priors.expectedTimeToFirstToken.seconds) + Double(max(tokens, 0)) / rate(priors)
    }

    private func rate(_ priors: ProviderCapabilities) -> Double { max(tokensPerSecond ?? priors.expectedTokensPerSecond, 0.001) }
}
