/// The last `capacity` calls of one provider in a ring buffer: recording is O(1) and allocation-free;
/// statistics are computed on demand.
package struct CallWindow: Sendable {
    private struct Sample: Sendable {
        var latency: Int64
        /// -1 when the call produced no token.
        var timeToFirstToken: Int64
        var completionTokens: Int32
        /// 0 success, 1 failure, 2 cancelled.
        var outcome: UInt8
    }
    private var samples: [Sample] = []
    private var nextSlot = 0
    package let capacity: Int

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        samples.reserveCapacity(min(self.capacity, 1024))  // a huge window grows as calls arrive
    }

    package var count: Int { samples.count }

    package mutating func append(_ record: CallRecord) {
        let sample = Sample(latency: record.latency.nanosecondsClamped,
                            timeToFirstToken: record.timeToFirstToken.map(\.nanosecondsClamped) ?? -1,
                            completionTokens: Int32(clamping: record.completionTokens),
                            outcome: record.isSuccess ? 0 : record.isFailure ? 1 : 2)
        if samples.count < capacity {
            samples.append(sample)
        } else {
            samples[nextSlot] = sample
        }
        nextSlot = (nextSlot + 1) % capacity
    }

    /// Slot indices, oldest call first.
    private func orderedIndices() -> [Int] {
        guard samples.count == capacity else { return Array(samples.indices) }
        return Array(nextSlot..<capacity) + Array(0..<nextSlot)
    }

    package struct Statistics: Sendable, Hashable {
        package var successes = 0
        package var failures = 0
        /// Failures at the end of the window, counting back to the last success (cancellations skipped).
        package var trailingFailures = 0
        package var latency = LatencySummary.empty
        package var timeToFirstToken = LatencySummary.empty
        package var tokensPerSecond: Double = 0
        package var successRate: Double { successes + failures == 0 ? 1 : Double(successes) / Double(successes + failures) }
        package var completedCalls: Int { successes + failures }
    }

    /// Latency covers every call in the window; time to first token and tokens/s only successful ones.
    package func statistics() -> Statistics {
        var stats = Statistics()
        guard !samples.isEmpty else { return stats }
        var latencies: [Int64] = []
        var firstTokens: [Int64] = []
        var rates: [Double] = []
        latencies.reserveCapacity(samples.count)
        for sample in samples {
            switch sample.outcome {
            case 0: stats.successes += 1
            case 1: stats.failures += 1
            default: break
            }
            latencies.append(sample.latency)
            guard sample.outcome == 0 else { continue }
            if sample.timeToFirstToken >= 0 { firstTokens.append(sample.timeToFirstToken) }
            let generating = sample.latency - max(sample.timeToFirstToken, 0)
            if sample.completionTokens > 0, generating > 0 {
                rates.append(Double(sample.completionTokens) / (Double(generating) * 1e-9))
            }
        }
        for index in orderedIndices().reversed() {
            let outcome = samples[index].outcome
            if outcome == 0 { break }
            if outcome == 1 { stats.trailingFailures += 1 }
        }
        stats.latency = LatencySummary(sortingNanoseconds: &latencies)
        stats.timeToFirstToken = LatencySummary(sortingNanoseconds: &firstTokens)
        rates.sort()
        stats.tokensPerSecond = rates.isEmpty ? 0 : Percentile.nearestRank(50, ofSorted: rates)
        return stats
    }
}

extension Duration {
    /// Whole nanoseconds, saturating at Int64's range.
    package var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? (seconds < 0 ? .min : .max) : sum
    }
}
