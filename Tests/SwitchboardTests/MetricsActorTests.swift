import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite struct MetricsActorTests {
    func record(_ provider: ProviderID, _ outcome: CallRecord.Outcome, ms: Int = 100, fallback: Bool = false) -> CallRecord {
        CallRecord(provider: provider, outcome: outcome, latency: .milliseconds(ms), timeToFirstToken: .milliseconds(ms / 10),
                   completionTokens: 10, queueWait: .zero, isFallback: fallback)
    }

    @Test func countersWindowAndQueue() async throws {
        let metrics = MetricsActor(windowSize: 4, clock: ManualClock())
        for ms in [100, 200, 300, 400, 500] { await metrics.record(record("local", .success, ms: ms)) }
        await metrics.record(record("local", .failure(.timeout)))
        await metrics.record(record("local", .cancelled))
        await metrics.record(record("remote", .success, fallback: true))
        await metrics.recordFallback(from: "local", to: "remote")
        await metrics.recordQueue("local", queued: 3, inFlight: 1, capacity: 2)
        let local = try #require(await metrics.metrics(for: "local"))
        #expect(local.requests == 7 && local.successes == 5 && local.failures == 1 && local.cancellations == 1)
        #expect(local.fallbacksOut == 1 && local.fallbacksIn == 0)
        #expect(local.latency.count == 4, "window of 4")
        #expect(local.latency.p99 == .milliseconds(500))
        #expect(abs(local.successRate - 2.0 / 3.0) < 1e-9)
        #expect(local.queueLength == 3 && local.inFlight == 1 && local.capacity == 2 && local.utilization == 0.5)
        #expect(local.health.level == .degraded)
        let remote = try #require(await metrics.metrics(for: "remote"))
        #expect(remote.fallbacksIn == 1 && remote.health.level == .healthy)
        #expect(await metrics.metrics(for: "nobody") == nil)
        #expect(await metrics.snapshot().providers.count == 2)
    }

    @Test func snapshotsSeeNewRecords() async {
        let metrics = MetricsActor(clock: ManualClock())
        await metrics.record(record("local", .success, ms: 100))
        #expect(await metrics.snapshot().providers["local"]?.latency.p50 == .milliseconds(100))
        await metrics.record(record("local", .success, ms: 300))
        await metrics.record(record("local", .success, ms: 300))
        #expect(await metrics.snapshot().providers["local"]?.latency.p50 == .milliseconds(300))
        #expect(await metrics.metrics(for: "local")?.latency.count == 3)
    }

    @Test func snapshotTimeComesFromTheClock() async {
        let clock = ManualClock()
        let metrics = MetricsActor(clock: clock)
        clock.advance(by: .seconds(3))
        #expect(await metrics.snapshot().takenAt == .seconds(3))
    }

    @Test func exportIsStableSnakeCaseJSON() async throws {
        let metrics = MetricsActor(clock: ManualClock())
        for ms in 1...100 { await metrics.record(record("local", .success, ms: ms)) }
        let json = await metrics.exportJSON()
        #expect(json == (await metrics.exportJSON()))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["taken_at_ms"] != nil)
        let providers = try #require(object["providers"] as? [String: Any])
        let local = try #require(providers["local"] as? [String: Any])
        for key in ["requests", "successes", "failures", "cancellations", "fallbacks_in", "fallbacks_out", "success_rate",
                    "latency", "time_to_first_token", "tokens_per_second", "queue_length", "in_flight", "capacity",
                    "utilization", "health"] {
            #expect(local[key] != nil, "missing \(key)")
        }
        let latency = try #require(local["latency"] as? [String: Any])
        #expect(latency["p50_ms"] as? Double == 50)
        #expect(latency["p95_ms"] as? Double == 95)
        #expect(latency["p99_ms"] as? Double == 99)
        let health = try #require(local["health"] as? [String: Any])
        #expect(health["level"] as? String == "healthy")
    }

    @Test func snapshotStreamYieldsAfterChangesAndFinishes() async {
        let metrics = MetricsActor(clock: ManualClock())
        let stream = await metrics.snapshots()
        var iterator = stream.makeAsyncIterator()
        let initial = await iterator.next()
        #expect(initial?.providers.isEmpty == true)
        await metrics.record(record("local", .success))
        let updated = await iterator.next()
        #expect(updated?.providers["local"]?.requests == 1)
        await metrics.finish()
        // At most one coalesced snapshot may still be buffered; then the stream ends.
        var remaining = 0
        while await iterator.next() != nil { remaining += 1 }
        #expect(remaining <= 1)
        var late = await metrics.snapshots().makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test func snapshotStreamCoalesces() async {
        let metrics = MetricsActor(clock: ManualClock())
        let stream = await metrics.snapshots()
        for _ in 0..<50 { await metrics.record(record("local", .success)) }
        await metrics.finish()
        var count = 0
        for await _ in stream { count += 1 }
        #expect(count <= 2, "bufferingNewest(1) keeps at most one pending snapshot")
    }

    @Test func streamFinishesWhenTheActorGoesAway() async {
        var metrics: MetricsActor? = MetricsActor(clock: ManualClock())
        let stream = await metrics!.snapshots()
        metrics = nil
        var count = 0
        for await _ in stream { count += 1 }
        #expect(count <= 1)
    }
}
