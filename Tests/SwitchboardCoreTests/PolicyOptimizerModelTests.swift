import Testing
@testable import SwitchboardCore

@Suite("Optimizer model")
struct PolicyOptimizerModelTests {
    let model = OptimizerModel(configuration: .init(minimumConcurrency: 2, maximumConcurrency: 10, additiveIncrease: 1,
                                                    multiplicativeDecrease: 0.5, errorThreshold: 0.1, latencySpikeFactor: 2))

    @Test("AIMD: add one on a healthy window, halve on errors, stay in bounds")
    func aimd() {
        let healthy = ProviderObservation(calls: 100, failures: 2, latency: .milliseconds(100))
        let failing = ProviderObservation(calls: 100, failures: 30, latency: .milliseconds(100))
        #expect(model.nextLimit(current: 4, observation: healthy, baseline: .milliseconds(100)) == 5)
        #expect(model.nextLimit(current: 10, observation: healthy, baseline: nil) == 10)
        #expect(model.nextLimit(current: 8, observation: failing, baseline: nil) == 4)
        #expect(model.nextLimit(current: 3, observation: failing, baseline: nil) == 2)
        #expect(model.nextLimit(current: 5, observation: ProviderObservation(calls: 0, failures: 0), baseline: nil) == 5)
    }

    @Test("A latency spike over the baseline decreases the limit")
    func spike() {
        let slow = ProviderObservation(calls: 50, failures: 0, latency: .milliseconds(500))
        #expect(model.nextLimit(current: 8, observation: slow, baseline: .milliseconds(100)) == 4)
        #expect(model.nextLimit(current: 8, observation: slow, baseline: .milliseconds(300)) == 9)
    }

    @Test("Weights fall with errors and relative slowness, never below the minimum")
    func weights() {
        #expect(model.weight(errorRate: 0, latency: .milliseconds(100), fastest: .milliseconds(100)) == 1)
        let slower = model.weight(errorRate: 0, latency: .milliseconds(400), fastest: .milliseconds(100))
        #expect(abs(slower - 0.625) < 1e-9)
        #expect(model.weight(errorRate: 1, latency: nil, fastest: nil) == 0.1)
    }

    @Test("plan() covers every observed provider and learns baselines")
    func plan() {
        var model = self.model
        let plan = model.plan(observations: ["a": ProviderObservation(calls: 10, failures: 0, latency: .milliseconds(100)),
                                             "b": ProviderObservation(calls: 10, failures: 5, latency: .milliseconds(200))],
                              currentLimits: ["a": 4, "b": 4])
        #expect(plan.concurrencyLimits == ["a": 5, "b": 2])
        #expect(plan.weights["a"] == 1)
        #expect((plan.weights["b"] ?? 1) < 0.5)
        #expect(model.baselines["a"] == .milliseconds(100))
    }

    @Test("Weights follow an EWMA of error rates across runs: one bad window is softened, recovery is gradual")
    func smoothing() {
        var model = self.model
        let bad = ProviderObservation(calls: 10, failures: 10, latency: .milliseconds(100))
        let good = ProviderObservation(calls: 10, failures: 0, latency: .milliseconds(100))
        _ = model.plan(observations: ["a": good], currentLimits: ["a": 4])
        let afterBad = model.plan(observations: ["a": bad], currentLimits: ["a": 4]).weights["a"] ?? 0
        #expect(abs(afterBad - 0.5) < 1e-9)
        let afterRecovery = model.plan(observations: ["a": good], currentLimits: ["a": 4]).weights["a"] ?? 0
        #expect(abs(afterRecovery - 0.75) < 1e-9)
        #expect(model.smoothedErrorRates["a"] == 0.25)
    }
}
