/// Counts of two things over a sliding time window, kept in a fixed ring of time slots: O(1) per
/// event, no allocation after creation.
package struct WindowedCounter: Sendable, Hashable {
    package let window: Duration
    private var slots: [Slot]
    private let slotLength: Int64

    struct Slot: Sendable, Hashable { var index: Int64 = .min; var first = 0; var second = 0 }

    package init(window: Duration, slotCount: Int = 10) {
        let count = max(1, slotCount)
        self.window = max(window, .nanoseconds(count))
        slots = Array(repeating: Slot(), count: count)
        slotLength = max(1, Self.nanoseconds(self.window) / Int64(count))
    }

    static func nanoseconds(_ d: Duration) -> Int64 {
        let (s, atto) = d.components
        return s &* 1_000_000_000 &+ atto / 1_000_000_000
    }

    private mutating func slot(at now: Duration) -> Int {
        let index = Self.nanoseconds(now) / slotLength
        let position = Int(((index % Int64(slots.count)) + Int64(slots.count)) % Int64(slots.count))
        if slots[position].index != index { slots[position] = Slot(index: index) }
        return position
    }

    package mutating func addFirst(_ n: Int = 1, at now: Duration) { slots[slot(at: now)].first += n }
    package mutating func addSecond(_ n: Int = 1, at now: Duration) { slots[slot(at: now)].second += n }

    /// Totals over the slots still inside the window at `now`.
    package func totals(at now: Duration) -> (first: Int, second: Int) {
        let current = Self.nanoseconds(now) / slotLength
        let oldest = current - Int64(slots.count) + 1
        var first = 0, second = 0
        for slot in slots where slot.index >= oldest && slot.index <= current {
            first += slot.first; second += slot.second
        }
        return (first, second)
    }

    package mutating func reset() { for i in slots.indices { slots[i] = Slot() } }
}
