import Foundation

/// Why the memory store refused an operation. Messages name the file, never an entry's text.
public enum MemoryStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case io(path: String, reason: String)
    case dimensionMismatch(expected: Int, got: Int)
    /// A vector with a NaN or infinity, or of length zero.
    case invalidVector

    public var description: String {
        switch self {
        case .io(let path, let reason): "memory store file \(path): \(reason)"
        case .dimensionMismatch(let expected, let got): "memory vectors have \(expected) dimensions; this one has \(got)"
        case .invalidVector: "a memory vector must be finite and non-zero"
        }
    }
}

/// Remembered texts with their vectors, searched by exact cosine similarity, persisted as an
/// append-only log of checksummed records.
///
/// Durability: `add` and `delete` return only after their record is written and synced, so an
/// acknowledged entry survives a crash. A crash mid-write leaves at most one torn record at the end;
/// reopening reads records while they are whole and intact, truncates the file after the last good
/// one (`recoveredBytes` says how much was dropped) and never touches earlier records.
///
/// Search scans every vector (a SIMD dot product per entry; vectors are stored normalized so the dot
/// is the cosine): exact, and fast enough at the scale of an app's memories (see Docs/Embeddings.md).
public actor MemoryStore {
    public let path: String
    public nonisolated let dimension: Int
    /// Bytes dropped from the end of the file when it was opened (a torn or damaged tail).
    public nonisolated let recoveredBytes: Int
    private let handle: FileHandle
    private var index: MemoryIndex

    /// Opens (or creates) the log at `path` for vectors of `dimension` floats, recovering from a torn tail.
    public init(path: String, dimension: Int) throws(MemoryStoreError) {
        guard dimension > 0, dimension <= 65_536 else { throw .dimensionMismatch(expected: 1, got: dimension) }
        self.path = path
        self.dimension = dimension
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: nil) else { throw .io(path: path, reason: "cannot create the file") }
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
            throw .io(path: path, reason: "cannot read (\(error.localizedDescription))")
        }
        var good = 0
        var replayed: [MemoryRecord] = []
        data.withUnsafeBytes { bytes in
            while let (record, next) = MemoryRecord.decode(bytes, at: good) {
                replayed.append(record)
                good = next
            }
        }
        recoveredBytes = data.count - good
        do {
            handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            if recoveredBytes > 0 {
                try handle.truncate(atOffset: UInt64(good))
                try handle.synchronize()
            }
            try handle.seekToEnd()
        } catch {
            throw .io(path: path, reason: "cannot open for appending (\(error.localizedDescription))")
        }
        var index = MemoryIndex(dimension: dimension)
        for record in replayed {
            switch record {
            case .add(let entry) where entry.vector.count == dimension: index.insert(entry)
            case .add: continue  // written for another dimension: not ours to serve
            case .delete(let id): index.remove(id)
            }
        }
        self.index = index
    }

    public var count: Int { index.entries.count }

    /// Adds a text with its vector (normalized here) and returns the stored entry once it is durable.
    @discardableResult
    public func add(text: String, vector: [Float], privacy: PrivacyLevel, metadata: [String: String] = [:]) throws(MemoryStoreError) -> MemoryEntry {
        let unit = try normalized(vector)
        let entry = MemoryEntry(id: UUID(), text: text, metadata: metadata, privacy: privacy, vector: unit)
        try append(.add(entry))
        index.insert(entry)
        return entry
    }

    /// Adds many texts with one sync at the end (bulk import): all are durable when it returns; a
    /// crash before then keeps a prefix of them.
    @discardableResult
    public func add(batch: [(text: String, vector: [Float], privacy: PrivacyLevel)]) throws(MemoryStoreError) -> [MemoryEntry] {
        var added: [MemoryEntry] = []
        var bytes: [UInt8] = []
        for item in batch {
            let entry = MemoryEntry(id: UUID(), text: item.text, metadata: [:], privacy: item.privacy, vector: try normalized(item.vector))
            bytes += MemoryRecord.add(entry).encoded()
            added.append(entry)
        }
        do {
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
        } catch {
            throw .io(path: path, reason: "write failed (\(error.localizedDescription))")
        }
        for entry in added { index.insert(entry) }
        return added
    }

    /// Deletes an entry (durably); false when no entry has that id.
    @discardableResult
    public func delete(id: UUID) throws(MemoryStoreError) -> Bool {
        guard index.rows[id] != nil else { return false }
        try append(.delete(id))
        index.remove(id)
        return true
    }

    public func entry(id: UUID) -> MemoryEntry? { index.rows[id].map { index.entries[$0] } }

    /// The `k` entries most similar to `query` (cosine), best first, among those at or below
    /// `maxPrivacy`.
    public func search(_ query: [Float], k: Int, maxPrivacy: PrivacyLevel = .sensitive) throws(MemoryStoreError) -> [MemoryHit] {
        let q = try normalized(query)
        guard k > 0 else { return [] }
        var best: [(score: Float, row: Int)] = []
        best.reserveCapacity(k + 1)
        let d = dimension, entries = index.entries
        index.matrix.withUnsafeBufferPointer { m in
            q.withUnsafeBufferPointer { qb in
                guard let base = m.baseAddress, let qp = qb.baseAddress else { return }
                for row in 0..<entries.count where entries[row].privacy <= maxPrivacy {
                    let score = Self.dot(base + row * d, qp, count: d)
                    if best.count == k, let last = best.last, score <= last.score { continue }
                    let at = best.firstIndex { score > $0.score } ?? best.count
                    best.insert((score, row), at: at)
                    if best.count > k { best.removeLast() }
                }
            }
        }
        return best.map { MemoryHit(entry: entries[$0.row], score: $0.score) }
    }

    private func append(_ record: MemoryRecord) throws(MemoryStoreError) {
        do {
            try handle.write(contentsOf: record.encoded())
            try handle.synchronize()
        } catch {
            throw .io(path: path, reason: "write failed (\(error.localizedDescription))")
        }
    }

    private func normalized(_ v: [Float]) throws(MemoryStoreError) -> [Float] {
        guard v.count == dimension else { throw .dimensionMismatch(expected: dimension, got: v.count) }
        var sum: Float = 0
        for x in v { sum += x * x }
        guard sum.isFinite, sum > 0 else { throw .invalidVector }
        let inverse = 1 / sum.squareRoot()
        return v.map { $0 * inverse }
    }

    private static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var acc = SIMD16<Float>()
        var i = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while i + 16 <= count {
            acc.addProduct(ra.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self),
                           rb.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self))
            i += 16
        }
        var s = acc.sum()
        while i < count { s += a[i] * b[i]; i += 1 }
        return s
    }
}

/// The entries and their vectors as one row-major matrix (unit rows, in `entries` order).
struct MemoryIndex {
    let dimension: Int
    var entries: [MemoryEntry] = []
    var rows: [UUID: Int] = [:]
    var matrix: [Float] = []

    init(dimension: Int) { self.dimension = dimension }

    mutating func insert(_ entry: MemoryEntry) {
        remove(entry.id)
        rows[entry.id] = entries.count
        entries.append(entry)
        matrix += entry.vector
    }

    /// Swap-remove: the last row moves into the hole.
    mutating func remove(_ id: UUID) {
        guard let row = rows.removeValue(forKey: id) else { return }
        let last = entries.count - 1, d = dimension
        if row != last {
            entries[row] = entries[last]
            rows[entries[row].id] = row
            for j in 0..<d { matrix[row * d + j] = matrix[last * d + j] }
        }
        entries.removeLast()
        matrix.removeLast(d)
    }
}
