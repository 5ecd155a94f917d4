import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// Records the order in which waiters got their slots.
actor GrantLog {
    private(set) var names: [String] = []
    func append(_ name: String) { names.append(name) }
}

@Suite("Load balancer")
struct LoadBalancerTests {
    @Test("Free slots are taken at once and all come back")
    func fastPath() async throws {
        let balancer = LoadBalancer(defaultLimit: 2)
        let a = try await balancer.acquire("p")
        let b = try await balancer.acquire("p")
        #expect(await balancer.status(of: "p") == .init(inFlight: 2, queued: 0, limit: 2))
        await balancer.release(a)
        await balancer.release(a)  // a second release of the same lease changes nothing
        #expect(await balancer.status(of: "p").inFlight == 1)
        await balancer.release(b)
        #expect(await balancer.totalInFlight == 0)
        #expect(a.queueWait == .zero)
    }

    @Test("Waiters are served by priority, then arrival")
    func priorityOrder() async throws {
        let balancer = LoadBalancer(defaultLimit: 1, queuePolicy: QueuePolicy(timeout: nil))
        let holder = try await balancer.acquire("p")
        let log = GrantLog()
        let arrivals: [(String, Priority)] = [("low-1", .low), ("normal-1", .normal), ("high-1", .high),
                                              ("normal-2", .normal), ("low-2", .low), ("high-2", .high)]
        var tasks: [Task<Void, any Error>] = []
        for (index, (name, priority)) in arrivals.enumerated() {
            tasks.append(Task {
                let lease = try await balancer.acquire("p", priority: priority)
                await log.append(name)
                await balancer.release(lease)
            })
            while await balancer.status(of: "p").queued < index + 1 { await Task.yield() }
        }
        await balancer.release(holder)
        for task in tasks { try await task.value }
        #expect(await log.names == ["high-1", "high-2", "normal-1", "normal-2", "low-1", "low-2"])
        #expect(await balancer.totalInFlight == 0)
        #expect(await balancer.statistics.afterWaiting == 6)
    }

    @Test("A full queue answers overloaded")
    func overloaded() async throws {
        let balancer = LoadBalancer(defaultLimit: 1, queuePolicy: QueuePolicy(maxQueueLength: 1, timeout: nil))
        let holder = try await balancer.acquire("p")
        let waiter = Task { try await balancer.acquire("p") }
        while await balancer.status(of: "p").queued < 1 { await Task.yield() }
        await #expect(throws: SwitchboardError.overloaded("p")) { try await balancer.acquire("p") }
        await balancer.release(holder)
        let lease = try await waiter.value
        await balancer.release(lease)
        #expect(await balancer.totalInFlight == 0)
    }

    @Test("A waiter times out on the injected clock, and the queue forgets it")
    func queueTimeout() async throws {
        let clock = ManualClock()
        let balancer = LoadBalancer(defaultLimit: 1, queuePolicy: QueuePolicy(timeout: .seconds(5)), clock: clock)
        let holder = try await balancer.acquire("p")
        let waiter = Task { try await balancer.acquire("p") }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(4))
        #expect(await balancer.status(of: "p").queued == 1)
        clock.advance(by: .seconds(1))
        await #expect(throws: SwitchboardError.queueTimeout("p")) { try await waiter.value }
        #expect(await balancer.status(of: "p").queued == 0)
        await balancer.release(holder)
        #expect(await balancer.totalInFlight == 0)
        #expect(await balancer.statistics.timedOut == 1)
    }

    @Test("A cancelled waiter leaves the queue; the slot goes to the next one")
    func cancelledWaiter() async throws {
        let balancer = LoadBalancer(defaultLimit: 1, queuePolicy: QueuePolicy(timeout: nil))
        let holder = try await balancer.acquire("p")
        let doomed = Task { try await balancer.acquire("p", priority: .high) }
        while await balancer.status(of: "p").queued < 1 { await Task.yield() }
        let patient = Task { try await balancer.acquire("p", priority: .low) }
        while await balancer.status(of: "p").queued < 2 { await Task.yield() }
        doomed.cancel()
        await #expect(throws: SwitchboardError.cancelled) { try await doomed.value }
        #expect(await balancer.status(of: "p").queued == 1)
        await balancer.release(holder)
        let lease = try await patient.value
        #expect(lease.provider == "p")
        await balancer.release(lease)
        #expect(await balancer.totalInFlight == 0)
        #expect(await balancer.statistics.cancelled == 1)
    }

    @Test("Raising the limit admits waiters; lowering it lets calls in flight finish")
    func limits() async throws {
        let balancer = LoadBalancer(defaultLimit: 1, queuePolicy: QueuePolicy(timeout: nil))
        let first = try await balancer.acquire("p")
        let second = Task { try await balancer.acquire("p") }
        while await balancer.status(of: "p").queued < 1 { await Task.yield() }
        await balancer.setLimit(2, for: "p")
        let lease = try await second.value
        #expect(await balancer.status(of: "p") == .init(inFlight: 2, queued: 0, limit: 2))
        await balancer.setLimit(1, for: "p")
        #expect(await balancer.status(of: "p").inFlight == 2)
        await balancer.release(first); await balancer.release(lease)
        #expect(await balancer.totalInFlight == 0)
    }

    @Test("Queue figures are reported to the metrics")
    func reportsToMetrics() async throws {
        let metrics = MetricsActor()
        let balancer = LoadBalancer(defaultLimit: 3, reporter: { provider, queued, inFlight, capacity in
            await metrics.recordQueue(provider, queued: queued, inFlight: inFlight, capacity: capacity)
        })
        let lease = try await balancer.acquire("p")
        await balancer.flushReports()
        let figures = await metrics.metrics(for: "p")
        #expect(figures?.inFlight == 1)
        #expect(figures?.capacity == 3)
        await balancer.release(lease)
        await balancer.flushReports()
        #expect(await metrics.metrics(for: "p")?.inFlight == 0)
    }
}
