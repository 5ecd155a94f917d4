/// Limits on the wait for a provider slot.
public struct QueuePolicy: Sendable, Hashable {
    /// Waiters per provider beyond which new requests fail with `overloaded`.
    public var maxQueueLength: Int
    /// Longest wait for a slot; nil waits until cancelled.
    public var timeout: Duration?

    public init(maxQueueLength: Int = 1024, timeout: Duration? = .seconds(30)) {
        self.maxQueueLength = max(0, maxQueueLength); self.timeout = timeout
    }
}

/// Waiters ordered by priority, then arrival. Plain value: the load balancer keeps one per provider.
package struct WaitQueue<Element: Sendable>: Sendable {
    package let capacity: Int
    // One FIFO per priority, highest last; `heads` skips served entries without shifting arrays.
    private var lanes: [[(id: UInt64, element: Element)]]
    private var heads: [Int]
    package private(set) var count = 0

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
        lanes = Array(repeating: [], count: Priority.allCases.count)
        heads = Array(repeating: 0, count: Priority.allCases.count)
    }

    package var isEmpty: Bool { count == 0 }

    /// Adds a waiter; false when the queue is full.
    package mutating func enqueue(_ element: Element, id: UInt64, priority: Priority) -> Bool {
        guard count < capacity else { return false }
        lanes[priority.rawValue].append((id, element))
        count += 1
        return true
    }

    /// The longest-waiting element of the highest priority present.
    package mutating func dequeue() -> (id: UInt64, element: Element)? {
        for lane in lanes.indices.reversed() where heads[lane] < lanes[lane].count {
            let entry = lanes[lane][heads[lane]]
            heads[lane] += 1
            compact(lane)
            count -= 1
            return entry
        }
        return nil
    }

    /// Removes the waiter with `id` (it was cancelled or timed out), if it is still queued.
    package mutating func remove(id: UInt64) -> Element? {
        for lane in lanes.indices {
            guard let index = lanes[lane][heads[lane]...].firstIndex(where: { $0.id == id }) else { continue }
            let entry = lanes[lane].remove(at: index)
            compact(lane)
            count -= 1
            return entry.element
        }
        return nil
    }

    /// Removes and returns every waiter, highest priority first.
    package mutating func removeAll() -> [Element] {
        var all: [Element] = []
        while let entry = dequeue() { all.append(entry.element) }
        return all
    }

    private mutating func compact(_ lane: Int) {
        if heads[lane] == lanes[lane].count {
            lanes[lane].removeAll(keepingCapacity: true); heads[lane] = 0
        } else if heads[lane] > 64 && heads[lane] * 2 > lanes[lane].count {
            lanes[lane].removeFirst(heads[lane]); heads[lane] = 0
        }
    }
}
