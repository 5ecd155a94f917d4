import Testing
@testable import SwitchboardCore

@Suite("Wait queue")
struct QueuePolicyTests {
    @Test("Priority first, then arrival")
    func order() {
        var queue = WaitQueue<String>(capacity: 10)
        let entries: [(String, Priority)] = [("n1", .normal), ("l1", .low), ("h1", .high), ("n2", .normal), ("h2", .high), ("l2", .low)]
        for (i, (name, priority)) in entries.enumerated() { let result = queue.enqueue(name, id: UInt64(i), priority: priority); #expect(result) }
        var served: [String] = []
        while let next = queue.dequeue() { served.append(next.element) }
        #expect(served == ["h1", "h2", "n1", "n2", "l1", "l2"])
        #expect(queue.isEmpty)
    }

    @Test("Capacity refuses the overflow")
    func capacity() {
        var queue = WaitQueue<Int>(capacity: 2)
        do { let result = queue.enqueue(1, id: 1, priority: .low); #expect(result) }
        do { let result = queue.enqueue(2, id: 2, priority: .high); #expect(result) }
        do { let result = queue.enqueue(3, id: 3, priority: .high); #expect(!result) }
        #expect(queue.count == 2)
        var zero = WaitQueue<Int>(capacity: 0)
        do { let result = zero.enqueue(1, id: 1, priority: .normal); #expect(!result) }
    }

    @Test("Removing a waiter keeps the others in order")
    func remove() {
        var queue = WaitQueue<Int>(capacity: 10)
        for i in 0..<5 { _ = queue.enqueue(i, id: UInt64(i), priority: .normal) }
        _ = queue.dequeue()
        do { let result = queue.remove(id: 2); #expect(result == 2) }
        do { let result = queue.remove(id: 2); #expect(result == nil) }
        do { let result = queue.remove(id: 0); #expect(result == nil) }
        var rest: [Int] = []
        while let next = queue.dequeue() { rest.append(next.element) }
        #expect(rest == [1, 3, 4])
    }

    @Test("Long runs compact without losing order")
    func longRun() {
        var queue = WaitQueue<Int>(capacity: 1000)
        var expected = 0
        var next = 0
        for round in 0..<200 {
            for _ in 0..<5 { _ = queue.enqueue(next, id: UInt64(next), priority: .normal); next += 1 }
            for _ in 0..<(round % 2 == 0 ? 3 : 6) {
                guard let entry = queue.dequeue() else { break }
                #expect(entry.element == expected)
                expected += 1
            }
        }
        #expect(queue.count == next - expected)
    }
}
