import Foundation
import SwitchboardCore

/// Why a memory store could not do what it was asked.
public enum MemoryStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file exists but is not a memory store (or its header is damaged).
    case notAMemoryFile
    /// The file holds vectors of another model or size: they cannot be compared with this embedder's.
    case embedderMismatch(stored: String, storedDimension: Int)
    /// Memories are private by default: only an on-device embedder may read them.
    case embedderNotOnDevice
    /// The embedder returned a vector of the wrong length, or the wrong number of vectors.
    case badEmbedding(expectedDimension: Int)
    case textTooLarge(bytes: Int, limit: Int)
    case io(String)

    public var description: String {
        switch self {
        case .notAMemoryFile: "not a memory store file"
        case .embedderMismatch(let model, let dimension): "the file holds \(dimension)-dimensional vectors of \(model)"
        case .embedderNotOnDevice: "a memory store needs an on-device embedder"
        case .badEmbedding(let dimension): "the embedder did not return one \(dimension)-dimensional vector per text"
        case .textTooLarge(let bytes, let limit): "a memory of \(bytes) bytes is over the limit of \(limit)"
        case .io(let what): what
        }
    }
}

/// A remembered text.
public struct Memory: Sendable, Hashable, Identifiable {
    public var id: UInt64
    public var text: String
    public var metadata: [String: String]
    /// The higher of the level the app gave and the analyzer's: a request that carries this memory is
    /// at least this private.
    public var privacy: PrivacyLevel
    public var created: Date
}

/// A memory and its cosine similarity to the query.
public struct MemoryHit: Sendable, Hashable {
    public var memory: Memory
    public var score: Float
}

/// The app's long-term memory: texts embedded on the device, searched by meaning, kept in one
/// append-only file under the app's directory (`MemoryLog`: a crash loses at most the write in flight).
///
/// Every memory keeps its privacy level. `attach(to:tokenBudget:)` fills a request's memory context with
/// the memories most relevant to its last user turn and raises the request's privacy to the most
/// private memory it carries, so a request holding a personal memory is routed as personal.
public actor MemoryStore {
    /// What opening the file found: records read, and bytes cut or skipped as damage.
    public struct Recovery: Sendable, Hashable {
        public var records: Int
        public var truncatedTailBytes: Int
        public var skippedBytes: Int
        public init(records: Int, truncatedTailBytes: Int, skippedBytes: Int) {
            self.records = records; self.truncatedTailBytes = truncatedTailBytes; self.skippedBytes = skippedBytes
        }
    }

    /// The largest text one memory may hold.
    public static let maxTextBytes = 1 << 20

    public nonisolated let recovery: Recovery
    private let embedder: any Embedder
    private let analyzer: ContentAnalyzer
    private let log: MemoryLog
    private let sync: Bool
    private var table: VectorTable
    private var memories: [UInt64: Memory] = [:]
    private var nextID: UInt64 = 1

    /// Opens the store at `file` (created when missing), verifying every record.
    /// - Parameter sync: `fsync` after every write (survives power loss, not only a killed process).
    public init(file: URL, embedder: some Embedder, analyzer: ContentAnalyzer = ContentAnalyzer(),
                sync: Bool = false) throws(MemoryStoreError) {
        guard embedder.isOnDevice else { throw .embedderNotOnDevice }
        guard embedder.dimension > 0 else { throw .badEmbedding(expectedDimension: embedder.dimension) }
        let (log, records, recovery) = try MemoryLog.open(at: file, dimension: embedder.dimension, modelID: embedder.modelID)
        self.embedder = embedder
        self.analyzer = analyzer
        self.log = log
        self.sync = sync
        self.recovery = Recovery(records: recovery.records, truncatedTailBytes: recovery.truncatedTailBytes,
                                 skippedBytes: recovery.skippedBytes)
        var table = VectorTable(dimension: embedder.dimension)
        var memories: [UInt64: Memory] = [:]
        var nextID: UInt64 = 1
        for record in records {
            switch record {
            case .add(let stored):
                table.insert(stored.id, level: UInt8(stored.privacy.rawValue), vector: stored.vector)
                memories[stored.id] = Memory(id: stored.id, text: stored.text, metadata: stored.metadata,
                                             privacy: stored.privacy, created: Date(timeIntervalSince1970: stored.created))
                nextID = max(nextID, stored.id &+ 1)
            case .delete(let id):
                table.remove(id)
                memories[id] = nil
            }
        }
        self.table = table
        self.memories = memories
        self.nextID = nextID
    }

    public var count: Int { table.count }

    public func memory(_ id: UInt64) -> Memory? { memories[id] }

    /// Embeds and stores one text; returns once it is in the file.
    @discardableResult
    public func add(_ text: String, metadata: [String: String] = [:], privacy: PrivacyLevel = .public) async throws -> Memory {
        try await add([(text, metadata, privacy)])[0]
    }

    /// Embeds the texts in one batch and stores them with one write.
    public func add(_ items: [(text: String, metadata: [String: String], privacy: PrivacyLevel)]) async throws -> [Memory] {
        guard !items.isEmpty else { return [] }
        for item in items where item.text.utf8.count > Self.maxTextBytes {
            throw MemoryStoreError.textTooLarge(bytes: item.text.utf8.count, limit: Self.maxTextBytes)
        }
        let vectors = try await embedder.embed(items.map(\.text))
        guard vectors.count == items.count, vectors.allSatisfy({ $0.count == table.dimension && $0.allSatisfy(\.isFinite) }) else {
            throw MemoryStoreError.badEmbedding(expectedDimension: table.dimension)
        }
        let now = Date()
        var stored: [StoredMemory] = []
        for (item, vector) in zip(items, vectors) {
            let level = max(item.privacy, analyzedLevel(item.text))
            stored.append(StoredMemory(id: nextID, privacy: level, created: now.timeIntervalSince1970, text: item.text,
                                       metadata: item.metadata, vector: vector))
            nextID &+= 1
        }
        try log.append(stored.map { .add($0) }, sync: sync)
        return stored.map { memory in
            table.insert(memory.id, level: UInt8(memory.privacy.rawValue), vector: memory.vector)
            let entry = Memory(id: memory.id, text: memory.text, metadata: memory.metadata, privacy: memory.privacy, created: now)
            memories[memory.id] = entry
            return entry
        }
    }

    /// Deletes a memory (a tombstone record in the file); false when there was none.
    @discardableResult
    public func delete(_ id: UInt64) throws -> Bool {
        guard memories[id] != nil else { return false }
        try log.append([.delete(id)], sync: sync)
        table.remove(id)
        memories[id] = nil
        return true
    }

    /// The `limit` memories closest in meaning to `query`, at most `maxPrivacy` private, best first.
    public func search(_ query: String, limit: Int = 10, maxPrivacy: PrivacyLevel = .sensitive) async throws -> [MemoryHit] {
        let vectors = try await embedder.embed([query])
        guard let vector = vectors.first, vectors.count == 1, vector.count == table.dimension else {
            throw MemoryStoreError.badEmbedding(expectedDimension: table.dimension)
        }
        return search(vector: vector, limit: limit, maxPrivacy: maxPrivacy)
    }

    /// The same search from a vector the caller already has.
    public func search(vector: [Float], limit: Int = 10, maxPrivacy: PrivacyLevel = .sensitive) -> [MemoryHit] {
        table.top(max(0, min(limit, 10_000)), query: vector, maxLevel: UInt8(maxPrivacy.rawValue)).compactMap { hit in
            memories[hit.id].map { MemoryHit(memory: $0, score: hit.score) }
        }
    }

    /// `request` with the memories most relevant to its last user turn in its memory context (long-term
    /// items, most relevant first, as many as fit `tokenBudget`), its privacy floor raised to the most
    /// private of them.
    public func attach(to request: GenerationRequest, tokenBudget: Int, limit: Int = 20,
                       minimumScore: Float = 0.2) async throws -> GenerationRequest {
        var result = request
        for try await context in contextUpdates(for: request, tokenBudget: tokenBudget, limit: limit, minimumScore: minimumScore) {
            result = context
        }
        return result
    }

    /// The same, as it builds: one request per memory added, for apps that show the context growing.
    public nonisolated func contextUpdates(for request: GenerationRequest, tokenBudget: Int, limit: Int = 20,
                                           minimumScore: Float = 0.2) -> AsyncThrowingStream<GenerationRequest, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    guard let query = request.finalUserTurn else { continuation.finish(); return }
                    let hits = try await self.search(query, limit: limit)
                    var current = request
                    var memory = request.memory ?? MemoryContext()
                    var used = memory.allText.reduce(0) { $0 + Self.tokens($1) }
                    for hit in hits where hit.score >= minimumScore {
                        let cost = Self.tokens(hit.memory.text)
                        guard used + cost <= tokenBudget else { continue }
                        used += cost
                        memory.longTerm.append(MemoryContext.Item(hit.memory.text, relevance: Double(max(0, min(1, hit.score)))))
                        if hit.memory.privacy >= .personal { memory.containsPersonalData = true }
                        current.memory = memory
                        if hit.memory.privacy > .public { current.privacyFloor = max(current.privacyFloor ?? .public, hit.memory.privacy) }
                        continuation.yield(current)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func analyzedLevel(_ text: String) -> PrivacyLevel {
        // Fails closed: a text the analyzer cannot vouch for is kept as sensitive.
        (try? analyzer.analyze(GenerationRequest(prompt: text)).privacy) ?? .sensitive
    }

    private static func tokens(_ text: String) -> Int { (text.utf8.count + 3) / 4 }
}
