import Synchronization
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// A provider that counts availability reads and, when gated, holds each read until `open()`.
actor AvailabilityProbe: Provider {
    nonisolated let id: ProviderID
    nonisolated let capabilities: ProviderCapabilities
    private(set) var reads = 0
    private var gated: Bool
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var current: ProviderAvailability = .ready

    init(id: ProviderID, onDevice: Bool = true, gated: Bool = false) {
        self.id = id; self.gated = gated
        capabilities = ProviderCapabilities(isOnDevice: onDevice, maxContextTokens: 8192)
    }

    func availability() async -> ProviderAvailability {
        reads += 1
        if gated { await withCheckedContinuation { waiting.append($0) } }
        return current
    }

    func set(_ availability: ProviderAvailability) { current = availability }

    func open() {
        gated = false
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }

    func generate(_ request: ProviderRequest) -> ProviderEventStream {
        ProviderEventStream(AsyncThrowingStream { continuation in
            continuation.yield(.token("ok"))
            continuation.yield(.finished(.stop, nil))
            continuation.finish()
        })
    }
}

/// A device-state source that counts its reads.
actor CountingDeviceState: DeviceStateProviding {
    private(set) var reads = 0
    func current() -> DeviceState { reads += 1; return DeviceState() }
}

@Suite struct HotPathTests {
    func call(_ provider: ProviderID, ms: Int = 10) -> CallRecord {
        CallRecord(provider: provider, outcome: .success, latency: .milliseconds(ms), completionTokens: 1)
    }

    @Test("Submitted records are in every read, before and after a batch fills")
    func submittedRecordsAreReadBack() async throws {
        let metrics = MetricsActor(clock: ManualClock(), batchSize: 4)
        for _ in 0..<3 { metrics.submit(call("a")) }   // below the batch: no drain has run
        #expect(await metrics.metrics(for: "a")?.requests == 3)
        for _ in 0..<1_000 { metrics.submit(call("a")) }
        metrics.submit(call("b"))
        let snapshot = await metrics.snapshot()
        #expect(snapshot.providers["a"]?.requests == 1_003)
        #expect(snapshot.providers["b"]?.requests == 1)
        #expect(await metrics.exportJSON().contains("\"b\""))
    }

    @Test("record(_:) after submit(_:) keeps the order the calls were made in")
    func recordKeepsOrderWithSubmitted() async {
        let metrics = MetricsActor(windowSize: 1, clock: ManualClock(), batchSize: 100)
        metrics.submit(call("a", ms: 10))
        await metrics.record(call("a", ms: 20))  // the window keeps only the newest call
        #expect(await metrics.metrics(for: "a")?.latency.p50 == .milliseconds(20))
    }

    @Test("A snapshot subscriber sees submitted records without anyone reading")
    func subscribersSeeSubmittedRecords() async {
        let metrics = MetricsActor(clock: ManualClock(), batchSize: 1_000)
        var iterator = await metrics.snapshots().makeAsyncIterator()
        _ = await iterator.next()  // the initial, empty snapshot
        metrics.submit(call("a"))
        let updated = await iterator.next()
        #expect(updated?.providers["a"]?.requests == 1)
        await metrics.finish()
    }

    @Test("Requests that returned are in the metrics, read directly or through the coordinator")
    func coordinatorMetricsAreComplete() async throws {
        let coordinator = Coordinator(providers: [Fixture.local()], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        for i in 0..<10 { _ = try await coordinator.respond(to: GenerationRequest(prompt: "Hello \(i)")) }
        #expect(await coordinator.metrics.snapshot().providers["local"]?.requests == 10)
        _ = try await coordinator.respond(to: GenerationRequest(prompt: "Hello again"))
        #expect(await coordinator.metricsSnapshot().providers["local"]?.successes == 11)
        let counts = coordinator.requestCounts()
        #expect(counts.accepted == 11 && counts.completed == 11)
    }

    func reads(_ a: AvailabilityProbe, _ b: AvailabilityProbe, _ device: CountingDeviceState) async -> [Int] {
        [await a.reads, await b.reads, await device.reads]
    }

    @Test("Availability and device state are read at most once per refresh interval")
    func refreshRespectsTheInterval() async throws {
        let clock = ManualClock()
        let local = AvailabilityProbe(id: "local"), other = AvailabilityProbe(id: "other")
        let device = CountingDeviceState()
        let configuration = SwitchboardConfiguration(stateRefreshInterval: .seconds(1))
        let coordinator = Coordinator(providers: [local, other], configuration: configuration, clock: clock,
                                      deviceState: device)
        let request = GenerationRequest(prompt: "What is 2+2?")
        for _ in 0..<5 { _ = try await coordinator.respond(to: request) }
        #expect(await reads(local, other, device) == [1, 1, 1])

        clock.advance(by: .milliseconds(999))
        await local.set(.unavailable(reason: "gone"))
        #expect(await coordinator.plan(for: request).candidates.contains("local"), "not re-read yet")
        #expect(await local.reads == 1)

        clock.advance(by: .milliseconds(1))
        let plan = await coordinator.plan(for: request)
        #expect(!plan.candidates.contains("local"))
        #expect(plan.ineligible.contains(Ineligibility(provider: "local", reason: .unavailable)))
        #expect(await reads(local, other, device) == [2, 2, 2])
    }

    @Test("Stale providers are asked for their availability at the same time, not one after another")
    func refreshAsksConcurrently() async throws {
        let first = AvailabilityProbe(id: "first", gated: true), second = AvailabilityProbe(id: "second", gated: true)
        let coordinator = Coordinator(providers: [first, second],
                                      configuration: SwitchboardConfiguration(stateRefreshInterval: .seconds(60)), deviceState: FixedDeviceState())
        let planning = Task { await coordinator.plan(for: GenerationRequest(prompt: "What is 2+2?")) }
        // Both reads start while neither has answered.
        var spins = 0
        while await first.reads + second.reads < 2, spins < 10_000 { await Task.yield(); spins += 1 }
        #expect(await first.reads == 1)
        #expect(await second.reads == 1)
        await first.open(); await second.open()
        #expect(await planning.value.candidates.count == 2)
    }

    @Test("A private request analyzed on the caller's thread still never leaves the device")
    func callerSideAnalysisKeepsPrivacy() async throws {
        let local = Fixture.local(), remote = Fixture.remote()
        let coordinator = Coordinator(providers: [remote, local], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: "my card is 4111 1111 1111 1111", preferredProviders: ["remote"])
        let response = try await coordinator.respond(to: request)
        #expect(response.providerID == "local" && response.privacy == .sensitive)
        var events: [SwitchboardEvent] = []
        for await event in coordinator.stream(request) { events.append(event) }
        #expect(events.first.map { if case .analyzed(let a) = $0 { a.privacy == .sensitive } else { false } } == true)
        #expect(await remote.callCount == 0)
    }
}

/// Counts holders of a slot at once, to check the load balancer's limit under concurrent callers.
final class HolderCount: Sendable {
    private let state = Lock((now: 0, most: 0))
    func enter() { state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
    func leave() { state.withLock { $0.now -= 1 } }
    var most: Int { state.withLock { $0.most } }
}

@Suite("Load balancer fast path")
struct LoadBalancerFastPathTests {
    @Test("Concurrent callers never hold more slots than the limit, and every slot comes back")
    func limitHoldsUnderConcurrency() async throws {
        let balancer = LoadBalancer(defaultLimit: 2)
        let holders = HolderCount()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<300 {
                        guard let lease = try? await balancer.acquire("p") else { continue }
                        holders.enter()
                        await Task.yield()
                        holders.leave()
                        await balancer.release(lease)
                    }
                }
            }
        }
        #expect(holders.most <= 2)
        #expect(await balancer.status(of: "p") == .init(inFlight: 0, queued: 0, limit: 2))
        let statistics = await balancer.statistics
        #expect(statistics.immediate + statistics.afterWaiting == 8 * 300)
    }

    @Test("A caller arriving while others wait queues behind them instead of taking the freed slot")
    func freedSlotGoesToTheWaiter() async throws {
        let balancer = LoadBalancer(defaultLimit: 1)
        let held = try await balancer.acquire("p")
        let log = GrantLog()
        let waiter = Task {
            let lease = try await balancer.acquire("p", priority: .low)
            await log.append("waiter")
            await balancer.release(lease)
        }
        while await balancer.status(of: "p").queued < 1 { await Task.yield() }
        await balancer.release(held)
        let late = try await balancer.acquire("p", priority: .high)
        await log.append("late")
        await balancer.release(late)
        try await waiter.value
        #expect(await log.names == ["waiter", "late"])
        #expect(await balancer.totalInFlight == 0)
    }
}
