import Testing
@testable import SwitchboardCore

@Suite("Latency estimate and windowed counter")
struct PolicyLatencyEstimateTests {
    let priors = ProviderCapabilities(isOnDevice: true, maxContextTokens: 1000, expectedTimeToFirstToken: .milliseconds(200),
                                      expectedTokensPerSecond: 50)

    @Test("Priors before data, observations after")
    func predictions() {
        var estimate = LatencyEstimate(alpha: 0.5)
        #expect(estimate.predictedLatency(tokens: 100, priors: priors) == .milliseconds(2200))
        estimate.recordSuccess(timeToFirstToken: .milliseconds(100), generation: .seconds(1), tokens: 100)
        #expect(estimate.predictedLatency(tokens: 100, priors: priors) == .milliseconds(1100))
        estimate.recordSuccess(timeToFirstToken: .milliseconds(300), generation: .seconds(1), tokens: 100)
        #expect(estimate.timeToFirstToken == .milliseconds(200))
    }

    @Test("Error rate is an EWMA of failures")
    func errorRate() {
        var estimate = LatencyEstimate(alpha: 0.5)
        estimate.recordFailure()
        #expect(estimate.errorRate == 0.5)
        estimate.recordFailure()
        #expect(estimate.errorRate == 0.75)
        estimate.recordSuccess(timeToFirstToken: nil, generation: .zero, tokens: 0)
        #expect(estimate.errorRate == 0.375)
    }

    @Test("Windowed counter drops slots that leave the window")
    func counter() {
        var counter = WindowedCounter(window: .seconds(10), slotCount: 10)
        counter.addFirst(3, at: .seconds(0)); counter.addSecond(1, at: .seconds(5))
        #expect(counter.totals(at: .seconds(9)) == (3, 1))
        #expect(counter.totals(at: .milliseconds(10_500)) == (0, 1))
        #expect(counter.totals(at: .seconds(16)) == (0, 0))
        counter.addFirst(at: .seconds(100))
        #expect(counter.totals(at: .seconds(100)) == (1, 0))
    }
}
