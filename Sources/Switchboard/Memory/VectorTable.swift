import Dispatch

/// Vectors in one contiguous row-major buffer, searched by an exact scan.
///
/// Why a scan and no index: 100,000 vectors of 384 floats are 154 MB, read once per query at memory
/// speed, split over the cores; an approximate index would trade exactness (and a build step, and
/// memory) for speed the measurements did not ask for (`Docs/Embeddings.md`).
///
/// The scan reads a half-precision copy of the rows (half the bytes, so half the time at memory
/// speed) and rescores in full precision only the rows that could still be in the top k: each row
/// keeps a bound on how far its half-precision score can be from its full one (`slack`: the exact
/// distance ‖v − half(v)‖ plus the float rounding of both sums, times ‖q‖ at query time), so a row is
/// dropped only when even its highest possible score is below the k-th best lowest possible score.
/// The result is the full-precision scan's, bit for bit; a few dozen rows are rescored for MiniLM
/// vectors, all of them in the worst case (many exact ties), which is only slower.
struct VectorTable: Sendable {
    let dimension: Int
    private(set) var ids: [UInt64] = []
    private(set) var levels: [UInt8] = []
    private var values: [Float] = []
    private var halves: [Float16] = []
    private var slacks: [Float] = []
    private var rows: [UInt64: Int] = [:]

    init(dimension: Int) { self.dimension = dimension }

    var count: Int { ids.count }

    func contains(_ id: UInt64) -> Bool { rows[id] != nil }

    mutating func insert(_ id: UInt64, level: UInt8, vector: [Float]) {
        precondition(vector.count == dimension, "checked by the store")
        let (half, slack) = Self.halfPrecision(vector)
        if let row = rows[id] {
            values.replaceSubrange((row * dimension)..<((row + 1) * dimension), with: vector)
            halves.replaceSubrange((row * dimension)..<((row + 1) * dimension), with: half)
            slacks[row] = slack
            levels[row] = level
            return
        }
        rows[id] = ids.count
        ids.append(id)
        levels.append(level)
        values.append(contentsOf: vector)
        halves.append(contentsOf: half)
        slacks.append(slack)
    }

    /// The row in half precision (clamped to its finite range) and its slack: ‖v − half(v)‖ plus
    /// d·2⁻²² ‖v‖ for the rounding of the two float sums (each within d·2⁻²⁴ of Σ|qᵢvᵢ| ≤ ‖q‖‖v‖, so
    /// twice the sum of both), computed in double and rounded up.
    static func halfPrecision(_ vector: [Float]) -> (half: [Float16], slack: Float) {
        var half = [Float16](repeating: 0, count: vector.count)
        var error = 0.0, norm = 0.0
        for (index, value) in vector.enumerated() {
            let h = Float16(max(-65_504, min(65_504, value)))
            half[index] = h
            let difference = Double(value) - Double(Float(h))
            error += difference * difference
            norm += Double(value) * Double(value)
        }
        let norm2 = norm.squareRoot(), error2 = error.squareRoot()
        let slack = (error2 + Double(vector.count) * 0x1p-22 * (norm2 + error2)) * (1 + 1e-3)
        return (half, Float(slack).nextUp)
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
            slacks[row] = slacks[last]
            rows[moved] = row
            for index in 0..<dimension {
                values[row * dimension + index] = values[last * dimension + index]
                halves[row * dimension + index] = halves[last * dimension + index]
            }
        }
        ids.removeLast()
        levels.removeLast()
        slacks.removeLast()
        values.removeLast(dimension)
        halves.removeLast(dimension)
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
        let queryNorm = Float(query.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()).nextUp
        values.withUnsafeBufferPointer { values in
            halves.withUnsafeBufferPointer { halves in
                slacks.withUnsafeBufferPointer { slacks in
                    query.withUnsafeBufferPointer { query in
                        levels.withUnsafeBufferPointer { levels in
                            ids.withUnsafeBufferPointer { ids in
                                let job = ScanJob(values: values, halves: halves, slacks: slacks, query: query, queryNorm: queryNorm,
                                                  levels: levels, ids: ids, results: results, dimension: dimension, k: k, size: size,
                                                  maxLevel: maxLevel)
                                if chunks == 1 { job.run(0) } else { DispatchQueue.concurrentPerform(iterations: chunks) { job.run($0) } }
                            }
                        }
                    }
                }
            }
        }
        var merged = results.flatMap { $0 }
        merged.sort { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
        return Array(merged.prefix(k))
    }

    /// The top k by rescoring every row in full precision: what `top` must equal (tests).
    func fullScan(_ k: Int, query: [Float], maxLevel: UInt8) -> [(id: UInt64, score: Float)] {
        guard k > 0, !ids.isEmpty, query.count == dimension else { return [] }
        let results = UnsafeMutableBufferPointer<[(id: UInt64, score: Float)]>.allocate(capacity: 1)
        defer { results.deallocate() }
        return values.withUnsafeBufferPointer { values in
            halves.withUnsafeBufferPointer { halves in
                slacks.withUnsafeBufferPointer { slacks in
                    query.withUnsafeBufferPointer { query in
                        levels.withUnsafeBufferPointer { levels in
                            ids.withUnsafeBufferPointer { ids in
                                let job = ScanJob(values: values, halves: halves, slacks: slacks, query: query, queryNorm: 0, levels: levels,
                                                  ids: ids, results: results, dimension: dimension, k: k, size: ids.count, maxLevel: maxLevel)
                                return Self.rescore(levels.indices.filter { levels[$0] <= maxLevel }, k: k, job: job)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Rows of `range` that may be in the top k: half-precision scores, each row kept while its upper
    /// bound reaches the k-th best lower bound seen so far (which only rises, so dropping is final).
    fileprivate static func candidates(_ range: Range<Int>, k: Int, job: ScanJob) -> [Int] {
        var lower: [Float] = []  // the k best lower bounds, best first
        lower.reserveCapacity(k + 1)
        var bound = -Float.infinity
        var kept: [(row: Int, upper: Float)] = []
        let base = UnsafeRawPointer(job.halves.baseAddress!)
        let q = UnsafeRawPointer(job.query.baseAddress!)
        let d = job.dimension, wide = d / 16 * 16
        for row in range where job.levels[row] <= job.maxLevel {
            let rowBase = base + row * d * 2
            var a = SIMD16<Float>()
            var index = 0
            while index < wide {
                a.addProduct(SIMD16<Float>(rowBase.loadUnaligned(fromByteOffset: index * 2, as: SIMD16<Float16>.self)),
                             q.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self))
                index += 16
            }
            var score = a.sum()
            while index < d { score += Float(job.halves[row * d + index]) * job.query[index]; index += 1 }
            let slack = job.queryNorm * job.slacks[row]
            let upper = score + slack
            if lower.count == k && upper < bound { continue }
            kept.append((row, upper))
            let low = score - slack
            if lower.count < k || low > bound {
                let at = lower.firstIndex { $0 < low } ?? lower.count
                lower.insert(low, at: at)
                if lower.count > k { lower.removeLast() }
                if lower.count == k { bound = lower[k - 1] }
            }
            if kept.count > 4 * k + 1_024 { kept.removeAll { $0.upper < bound } }
        }
        return kept.filter { !($0.upper < bound) }.map(\.row)
    }

    /// The exact top k among `rows` (ascending), as the full-precision scan ranks them.
    fileprivate static func rescore(_ rows: [Int], k: Int, job: ScanJob) -> [(id: UInt64, score: Float)] {
        var best: [(id: UInt64, score: Float)] = []
        best.reserveCapacity(k + 1)
        var floor = -Float.infinity
        let base = UnsafeRawPointer(job.values.baseAddress!)
        let q = UnsafeRawPointer(job.query.baseAddress!)
        let dimension = job.dimension, wide = dimension / 16 * 16
        for row in rows {
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
            while index < dimension { score += job.values[row * dimension + index] * job.query[index]; index += 1 }
            let id = job.ids[row]
            guard best.count < k || score > floor || (score == floor && id < best[best.count - 1].id) else { continue }
            let entry = (id: id, score: score)
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
    let halves: UnsafeBufferPointer<Float16>
    let slacks: UnsafeBufferPointer<Float>
    let query: UnsafeBufferPointer<Float>
    let queryNorm: Float
    let levels: UnsafeBufferPointer<UInt8>
    let ids: UnsafeBufferPointer<UInt64>
    let results: UnsafeMutableBufferPointer<[(id: UInt64, score: Float)]>
    let dimension: Int, k: Int, size: Int
    let maxLevel: UInt8

    func run(_ chunk: Int) {
        let range = (chunk * size)..<min(ids.count, (chunk + 1) * size)
        results[chunk] = VectorTable.rescore(VectorTable.candidates(range, k: k, job: self), k: k, job: self)
    }
}
