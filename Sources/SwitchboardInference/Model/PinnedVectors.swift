/// Float vectors (norm weights, biases) copied into one allocation, so a forward pass reads them
/// through stable pointers. Owned by one `ForwardPass`.
final class PinnedVectors {
    private let storage: UnsafeMutablePointer<Float>
    private let offsets: [Int]

    init(_ vectors: [[Float]]) {
        var offsets: [Int] = []
        var total = 0
        for v in vectors { offsets.append(total); total += v.count }
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(1, total))
        for (v, offset) in zip(vectors, offsets) {
            v.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { (storage + offset).initialize(from: base, count: v.count) }
            }
        }
        self.storage = storage
        self.offsets = offsets
    }

    deinit { storage.deallocate() }

    /// Vector `index` of those given at init.
    subscript(index: Int) -> UnsafePointer<Float> { UnsafePointer(storage + offsets[index]) }
}
