import SwitchboardCore

/// A least-recently-used table in flat arrays: slots linked by index, a free list and a dictionary from
/// key to slot. Every operation is O(1) and allocates nothing once the arrays have grown.
struct LRUTable<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var previous: Int
        var next: Int
    }
    private var slots: [Slot?] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    /// Most recently used.
    private var head = -1
    /// Least recently used.
    private var tail = -1

    var count: Int { index.count }

    func peek(_ key: Key) -> Value? { index[key].flatMap { slots[$0]?.value } }

    /// The value, marked most recently used.
    mutating func touch(_ key: Key) -> Value? {
        guard let slot = index[key], let value = slots[slot]?.value else { return nil }
        unlink(slot); linkFront(slot)
        return value
    }

    /// Inserts or replaces; returns the replaced value.
    @discardableResult
    mutating func set(_ value: Value, for key: Key) -> Value? {
        if let slot = index[key], let old = slots[slot]?.value {
            slots[slot]?.value = value
            unlink(slot); linkFront(slot)
            return old
        }
        let fresh = Slot(key: key, value: value, previous: -1, next: -1)
        let slot: Int
        if let reused = freeSlots.popLast() { slots[reused] = fresh; slot = reused } else { slots.append(fresh); slot = slots.count - 1 }
        index[key] = slot
        linkFront(slot)
        return nil
    }

    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key), let value = slots[slot]?.value else { return nil }
        unlink(slot)
        slots[slot] = nil
        freeSlots.append(slot)
        return value
    }

    var leastRecentlyUsed: (key: Key, value: Value)? {
        guard tail >= 0, let slot = slots[tail] else { return nil }
        return (slot.key, slot.value)
    }

    /// Keys from most to least recently used (for tests and diagnostics; O(n)).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var cursor = head
        while cursor >= 0, let slot = slots[cursor] { keys.append(slot.key); cursor = slot.next }
        return keys
    }

    mutating func removeAll() {
        slots.removeAll(keepingCapacity: true); freeSlots.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true); head = -1; tail = -1
    }

    private mutating func unlink(_ slot: Int) {
        guard let node = slots[slot] else { return }
        if node.previous >= 0 { slots[node.previous]?.next = node.next } else { head = node.next }
        if node.next >= 0 { slots[node.next]?.previous = node.previous } else { tail = node.previous }
        slots[slot]?.previous = -1; slots[slot]?.next = -1
    }

    private mutating func linkFront(_ slot: Int) {
        slots[slot]?.previous = -1
        slots[slot]?.next = head
        if head >= 0 { slots[head]?.previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }
}
