import SwitchboardCore

/// The semantic half of the response cache: answers found by the meaning of the final user turn, only
/// among entries asked in the same context (`SemanticCacheScope`) at the same privacy level or lower,
/// and only when `SemanticGuard` finds no negation, number or name that differs.
package struct SemanticIndex {
    package struct Entry {
        package var scope: SemanticCacheScope
        package var prompt: String
        package var response: GenerationResponse
        package var privacy: PrivacyLevel
        package var expiresAt: Duration
        package init(scope: SemanticCacheScope, prompt: String, response: GenerationResponse, privacy: PrivacyLevel,
                     expiresAt: Duration) {
            self.scope = scope; self.prompt = prompt; self.response = response; self.privacy = privacy; self.expiresAt = expiresAt
        }
    }

    package enum Lookup {
        case hit(GenerationResponse, similarity: Float)
        case miss(refusals: [SemanticRefusal])
    }

    let dimension: Int
    private var tables: [SemanticCacheScope: VectorTable] = [:]
    private var entries = LRUTable<UInt64, Entry>()
    private var nextID: UInt64 = 1

    package init(dimension: Int) { self.dimension = dimension }

    package var count: Int { entries.count }

    /// The best stored answer above `threshold` that the guard lets through. Candidates are tried best
    /// first, at most `candidates` of them; expired ones are dropped on the way.
    package mutating func lookup(_ vector: [Float], prompt: String, scope: SemanticCacheScope, privacy: PrivacyLevel,
                         threshold: Float, now: Duration, candidates: Int = 4) -> Lookup {
        guard vector.count == dimension, let table = tables[scope] else { return .miss(refusals: []) }
        var refusals: [SemanticRefusal] = []
        for candidate in table.top(candidates, query: vector, maxLevel: UInt8(privacy.rawValue)) where candidate.score >= threshold {
            guard let entry = entries.peek(candidate.id) else { continue }
            if now >= entry.expiresAt { remove(candidate.id); continue }
            if let refusal = SemanticGuard.refusal(cached: entry.prompt, candidate: prompt) { refusals.append(refusal); continue }
            _ = entries.touch(candidate.id)
            return .hit(entry.response, similarity: candidate.score)
        }
        return .miss(refusals: refusals)
    }

    /// Stores an answer; evicts the least recently used entries past `maxEntries`.
    package mutating func store(_ vector: [Float], entry: Entry, maxEntries: Int) {
        guard vector.count == dimension, maxEntries > 0 else { return }
        let id = nextID
        nextID &+= 1
        tables[entry.scope, default: VectorTable(dimension: dimension)].insert(id, level: UInt8(entry.privacy.rawValue), vector: vector)
        _ = entries.set(entry, for: id)
        while entries.count > maxEntries, let (oldest, _) = entries.leastRecentlyUsed { remove(oldest) }
    }

    mutating func removeAll() {
        tables.removeAll()
        entries.removeAll()
    }

    private mutating func remove(_ id: UInt64) {
        guard let entry = entries.remove(id) else { return }
        tables[entry.scope]?.remove(id)
        if tables[entry.scope]?.count == 0 { tables[entry.scope] = nil }
    }
}

/// What must be equal for two requests to share answers by meaning: everything but the final user turn
/// (system prompt, earlier turns, memory, tools, schema, sampling, routing constraints), as a digest, and
/// the caller's scope (a user id, for example), so one user's answers never reach another.
public struct SemanticCacheScope: Sendable, Hashable {
    public var context: UInt64
    public var scope: String?

    public init(request: GenerationRequest) {
        var stripped = request
        if let last = request.messages.lastIndex(where: { $0.role == .user }) {
            stripped.messages[last].content = ""
        } else {
            stripped.prompt = ""
        }
        stripped.cacheScope = nil
        context = CacheKey(request: stripped, privacy: .public).digest
        scope = request.cacheScope
    }
}
