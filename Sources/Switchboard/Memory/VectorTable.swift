import Dispatch

/// Vectors in one contiguous row-major buffer, searched by an exact scan.
///
/// Why a scan and no index: 100,000 vectors of 384 floats are 154 MB, read once per query at memory
/// speed, split over the cores; an approximate index would trade exactness (and a build step, and
/// memory) for speed the measurements did not ask for (`Docs/Embeddings.md`).
struct VectorTable: Sendable {
    let dimension: Int
    private(set) var ids: [UInt64] = []
    private(set) var levels: [UInt8] = []
    private var values: [Float] = []
    private var rows: [UInt64: Int] = [:]

    init(dimension: Int) { self.dimension = dimension }

    var count: Int { ids.count }

    func contains(_ id: UInt64) -> Bool { rows[id] != nil }

    mutating func insert(_ id: UInt64, level: UInt8, vector: [Float]) {
        precondition(vector.count == dimension, "checked by the store")
        if let row = rows[id] {
            values.replaceSubrange((row * dimension)..<((row + 1) * dimension), with: vector)
            levels[row] = level
            return
        }
        rows[id] = ids.count
        ids.append(id)
        levels.append(level)
        values.append(contentsOf: vector)
    }

    /// Removes a row by moving the last row into its place: the buffer stays dense.
    @discardableResult
    mutating func remove(_ id: UInt64) -> Bool {
        guard let row = rows.removeValue(forKey: id) else { return false }
        let last = ids.count - 1
        if row != last {
            let moved = ids[last]
            ids[row] = moved
            levels[row] = levels[last]
            rows[moved] = row
            for index in 0..<dimension { values[row * dimension + index] = values[last * dimension + index] }
        }
        ids.removeLast()
        levels.removeLast()
        values.removeLast(dimension)
        return true
    }

    /// The `k` rows with the largest dot product with `query` among rows at or below `maxLevel`, best
    /// first (ties by id, so the order never depends on the split).
    func top(_ k: Int, query: [Float], maxLevel: UInt8) -> [(id: UInt64, score: Float)] {
        guard k > 0, !ids.isEmpty, query.count == dimension else { return [] }
        let chunks = ids.count >= 8192 ? 2 : 1
        let size = (ids.count + chunks - 1) / chunks
        // One slot per worker, each written by its worker alone; read after `concurrentPerform` returns.
        let results = UnsafeMutableBufferPointer<[(id: UInt64, score: Float)]>.allocate(capacity: chunks)
        results.initialize(repeating: [])
        defer { results.deinitialize(); results.deallocate() }
        values.withUnsafeBufferPointer { values in
            query.withUnsafeBufferPointer { query in
                levels.withUnsafeBufferPointer { levels in
                    ids.withUnsafeBufferPointer { ids in
                        let job = ScanJob(values: values, query: query, levels: levels, ids: ids, results: results,
                                          dimension: dimension, k: k, size: size, maxLevel: maxLevel)
                        if chunks == 1 { job.run(0) } else { DispatchQueue.concurrentPerform(iterations: chunks) { job.run($0) } }
                    }
                }
            }
        }
        var merged = results.flatMap { $0 }
        merged.sort { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
        return Array(merged.prefix(k))
    }

    fileprivate static func scan(_ range: Range<Int>, k: Int, values: UnsafeBufferPointer<Float>, query: UnsafeBufferPointer<Float>,
                             levels: UnsafeBufferPointer<UInt8>, ids: UnsafeBufferPointer<UInt64>, dimension: Int,
                             maxLevel: UInt8) -> [(id: UInt64, score: Float)] {
        var best: [(id: UInt64, score: Float)] = []
        best.reserveCapacity(k + 1)
        var floor = -Float.infinity
        let base = UnsafeRawPointer(values.baseAddress!)
        let q = UnsafeRawPointer(query.baseAddress!)
        let wide = dimension / 16 * 16
        for row in range where levels[row] <= maxLevel {
            let rowBase = base + row * dimension * 4
            var a = SIMD16<Float>(), b = SIMD16<Float>()
            var index = 0
            while index + 32 <= wide {
                a.addProduct(rowBase.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self),
                             q.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self))
                b.addProduct(rowBase.loadUnaligned(fromByteOffset: (index + 16) * 4, as: SIMD16<Float>.self),
                             q.loadUnaligned(fromByteOffset: (index + 16) * 4, as: SIMD16<Float>.self))
                index += 32
            }
            if index < wide {
                a.addProduct(rowBase.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self),
                             q.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self))
                index += 16
            }
            var score = (a + b).sum()
            while index < dimension { score += values[row * dimension + index] * query[index]; index += 1 }
            guard best.count < k || score > floor || (score == floor && ids[row] < best[best.count - 1].id) else { continue }
            let entry = (id: ids[row], score: score)
            let at = best.firstIndex { $0.score < score || ($0.score == score && $0.id > entry.id) } ?? best.count
            best.insert(entry, at: at)
            if best.count > k { best.removeLast() }
            if best.count == k { floor = best[k - 1].score }
        }
        return best
    }
}

/// One scan split over workers. The buffers outlive `concurrentPerform`, which returns after every
/// worker, and each worker writes only its own result slot: hence `@unchecked`.
private struct ScanJob: @unchecked Sendable {
    let values: UnsafeBufferPointer<Float>
    let query: UnsafeBufferPointer<Float>
    let levels: UnsafeBufferPointer<UInt8>
    let ids: UnsafeBufferPointer<UInt64>
    let results: UnsafeMutableBufferPointer<[(id: UInt64, score: Float)]>
    let dimension: Int, k: Int, size: Int
    let maxLevel: UInt8

    func run(_ chunk: Int) {
        let range = (chunk * size)..<min(ids.count, (chunk + 1) * size)
        results[chunk] = VectorTable.scan(range, k: k, values: values, query: query, levels: levels, ids: ids,
                                          dimension: dimension, maxLevel: maxLevel)
    }
}
