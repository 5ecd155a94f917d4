import Testing
import SwitchboardCore

@Suite struct MetricsWindowTests {
    func success(_ ms: Int, ttft: Int? = nil, tokens: Int = 0) -> CallRecord {
        CallRecord(provider: "p", outcome: .success, latency: .milliseconds(ms), timeToFirstToken: ttft.map { .milliseconds($0) },
                   completionTokens: tokens, queueWait: .zero, isFallback: false)
    }
    func failure(_ ms: Int = 10) -> CallRecord {
        CallRecord(provider: "p", outcome: .failure(.timeout), latency: .milliseconds(ms), timeToFirstToken: nil,
                   completionTokens: 0, queueWait: .zero, isFallback: false)
    }

    @Test func nearestRankPercentiles() {
        var window = CallWindow(capacity: 512)
        for ms in (1...100).shuffled() { window.append(success(ms)) }
        let latency = window.statistics().latency
        #expect(latency.p50 == .milliseconds(50))
        #expect(latency.p95 == .milliseconds(95))
        #expect(latency.p99 == .milliseconds(99))
        #expect(latency.mean == .microseconds(50_500))
        #expect(latency.count == 100)
    }

    @Test func percentileOfSmallSets() {
        #expect(Percentile.nearestRank(50, ofSorted: [7]) == 7)
        #expect(Percentile.nearestRank(50, ofSorted: [1, 2]) == 1)
        #expect(Percentile.nearestRank(99, ofSorted: [1, 2]) == 2)
        #expect(Percentile.nearestRank(50, ofSorted: [Int]()) == 0)
    }

    @Test func windowEvictsOldest() {
        var window = CallWindow(capacity: 10)
        for _ in 0..<10 { window.append(success(1000)) }
        for _ in 0..<10 { window.append(success(10)) }
        let stats = window.statistics()
        #expect(window.count == 10)
        #expect(stats.latency.p99 == .milliseconds(10))
        #expect(stats.successes == 10)
    }

    @Test func tokensPerSecondIsMedianOfGenerationRates() {
        var window = CallWindow(capacity: 8)
        window.append(success(1100, ttft: 100, tokens: 100))   // 100 tok/s
        window.append(success(600, ttft: 100, tokens: 100))    // 200 tok/s
        window.append(success(2100, ttft: 100, tokens: 100))   // 50 tok/s
        window.append(failure())
        #expect(abs(window.statistics().tokensPerSecond - 100) < 1e-9)
        #expect(window.statistics().timeToFirstToken.count == 3)
    }

    @Test func successRateSkipsCancellations() {
        var window = CallWindow(capacity: 8)
        window.append(success(10)); window.append(failure())
        window.append(CallRecord(provider: "p", outcome: .cancelled, latency: .milliseconds(1), timeToFirstToken: nil,
                                 completionTokens: 0, queueWait: .zero, isFallback: false))
        #expect(window.statistics().successRate == 0.5)
    }

    @Test func healthTransitions() {
        let policy = HealthPolicy()
        var window = CallWindow(capacity: 20)
        for _ in 0..<10 { window.append(success(100)) }
        #expect(policy.evaluate(window.statistics(), utilization: 0.5).level == .healthy)

        window.append(failure()); window.append(failure())
        let degraded = policy.evaluate(window.statistics(), utilization: 0.5)
        #expect(degraded.level == .degraded)
        #expect(degraded.reasons.contains { $0.contains("success rate 83%") })

        for _ in 0..<3 { window.append(failure()) }
        let critical = policy.evaluate(window.statistics(), utilization: 0.5)
        #expect(critical.level == .critical)
        #expect(critical.reasons.contains("the last 5 calls failed"))

        window.append(success(100))
        #expect(policy.evaluate(window.statistics(), utilization: 0.5).level == .degraded)
    }

    @Test func lowSuccessRateIsCriticalOnlyWithEnoughCalls() {
        let policy = HealthPolicy()
        var window = CallWindow(capacity: 20)
        window.append(failure()); window.append(success(10)); window.append(failure())
        #expect(policy.evaluate(window.statistics(), utilization: 0).level == .degraded)
        window.append(failure()); window.append(success(10)); window.append(failure())
        #expect(policy.evaluate(window.statistics(), utilization: 0).level == .critical)
    }

    @Test func latencySpreadAndUtilizationDegrade() {
        let policy = HealthPolicy()
        var window = CallWindow(capacity: 20)
        for _ in 0..<8 { window.append(success(100)) }
        for _ in 0..<2 { window.append(success(900)) }
        let spread = policy.evaluate(window.statistics(), utilization: 0)
        #expect(spread.level == .degraded)
        #expect(spread.reasons == ["p95 latency 900 ms is more than 2× the median 100 ms"])

        var steady = CallWindow(capacity: 20)
        for _ in 0..<10 { steady.append(success(100)) }
        let busy = policy.evaluate(steady.statistics(), utilization: 0.95)
        #expect(busy.level == .degraded)
        #expect(busy.reasons == ["utilization 95% is above 90%"])
    }
}
