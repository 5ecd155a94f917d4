/// An element of a merge queue: `precedes` is true when it must be merged before `other`.
protocol BigramOrdered {
    func precedes(_ other: Self) -> Bool
}

/// The binary heap both merge sessions use (SentencePiece by score, BPE by rank). It moves a hole
/// instead of swapping and keeps its storage between words.
struct BigramHeap<Element: BigramOrdered> {
    private var items: [Element] = []

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    mutating func push(_ element: Element) {
        items.append(element)
        items.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard element.precedes(heap[parent]) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = element
        }
    }

    mutating func pop() -> Element? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items.withUnsafeMutableBufferPointer { heap in
            let count = heap.count
            var parent = 0
            while true {
                var child = 2 * parent + 1
                guard child < count else { break }
                if child + 1 < count, heap[child + 1].precedes(heap[child]) { child += 1 }
                guard heap[child].precedes(last) else { break }
                heap[parent] = heap[child]
                parent = child
            }
            heap[parent] = last
        }
        return top
    }
}
