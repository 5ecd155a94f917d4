import Synchronization
import SwitchboardCore

/// The load balancer's slot counts, behind a lock so that taking a free slot and giving one back need
/// no hop to the `LoadBalancer` actor (the routing hot path). Waiters themselves (continuations, timers,
/// the priority queue) stay in the actor; `waiting` mirrors its queue length, so the fast path never
/// takes a slot that a waiter is owed. The lock is held for a few field updates, never across a suspension.
final class SlotTable: Sendable {
    struct Counts {
        var limit: Int
        var inFlight = 0
        /// Waiters in the actor's queue for this provider.
        var waiting = 0
        var hasFreeSlot: Bool { inFlight < limit && waiting == 0 }
    }

    struct State {
        /// Counts per provider, in first-use order.
        var lanes = ProviderTable<Counts>()
        var outstanding: Set<UInt64> = []
        var nextID: UInt64 = 0
        var statistics = LoadBalancer.Statistics()
        var lastReport: Duration?
        let defaultLimit: Int

        /// The provider's counts, created with the default limit on first use.
        mutating func withLane<R>(_ provider: ProviderID, _ body: (inout Counts) -> R) -> R {
            let index = lanes.position(of: provider) ?? lanes.set(Counts(limit: defaultLimit), for: provider)
            return body(&lanes.values[index])
        }

        /// A new lease id, recorded as held.
        mutating func issue() -> UInt64 {
            let id = nextLeaseID()
            outstanding.insert(id)
            return id
        }

        /// A new lease id, not yet held (a waiter's, until it is served).
        mutating func nextLeaseID() -> UInt64 {
            nextID &+= 1
            return nextID
        }
    }

    let state: Lock<State>

    init(defaultLimit: Int, limits: [ProviderID: Int]) {
        var initial = State(defaultLimit: defaultLimit)
        for (provider, limit) in limits.sorted(by: { $0.key < $1.key }) { initial.lanes.set(Counts(limit: max(1, limit)), for: provider) }
        state = Lock(initial)
    }

    /// Takes a free slot when one is free and nobody waits: the lease id, or nil.
    func takeFreeSlot(_ provider: ProviderID) -> UInt64? {
        state.withLock { state in
            let taken = state.withLane(provider) { counts in
                guard counts.hasFreeSlot else { return false }
                counts.inFlight += 1
                return true
            }
            guard taken else { return nil }
            state.statistics.immediate += 1
            return state.issue()
        }
    }

    enum Release { case ignored, freed, freedWithWaiters }

    /// Gives the slot of lease `id` back; a second release of the same lease is ignored.
    func release(_ id: UInt64, on provider: ProviderID) -> Release {
        state.withLock { state in
            guard state.outstanding.remove(id) != nil else { return .ignored }
            return state.withLane(provider) { counts in
                counts.inFlight -= 1
                return counts.waiting > 0 ? .freedWithWaiters : .freed
            }
        }
    }

    /// Whether a queue report is due at `now`; marks it done if so.
    func claimReport(at now: Duration, interval: Duration) -> Bool {
        state.withLock { state in
            if let last = state.lastReport, now - last < interval { return false }
            state.lastReport = now
            return true
        }
    }

    func counts(_ provider: ProviderID) -> Counts? { state.withLock { $0.lanes[provider] } }
    func allCounts() -> [ProviderID: Counts] { state.withLock { $0.lanes.dictionary } }
    var statistics: LoadBalancer.Statistics { state.withLock { $0.statistics } }
}
