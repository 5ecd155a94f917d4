import SwitchboardCore

/// Response cache: exact matches (LRU within an entry and byte budget, entries expire after the TTL on
/// the injected clock), then, when configured, answers to the same question worded differently
/// (`SemanticIndex`). Sensitive requests are never stored; personal ones only when configured.
public actor CacheActor {
    private struct Entry {
        var response: GenerationResponse
        var bytes: Int
        var expiresAt: Duration
    }
    /// Estimated fixed cost of one entry beyond its text (key fields, response fields, table slot).
    static let entryOverheadBytes = 256

    private let configuration: CacheConfiguration
    private let clock: ClockSource
    private var table = LRUTable<CacheKey, Entry>()
    private var stats = CacheStatistics()
    private let semantic: SemanticCacheConfiguration?
    private var index: SemanticIndex?
    /// The last misses' final-turn vectors, kept so storing the answer needs no second embedding.
    private var pendingVectors: [CacheKey: (vector: [Float], scope: SemanticCacheScope, prompt: String)] = [:]
    /// Whether a miss is worth a semantic lookup: read without a hop, so a cache without one costs nothing.
    public nonisolated let isSemantic: Bool

    /// - Parameter semantic: turns the semantic cache on (off by default).
    public init(configuration: CacheConfiguration = .init(), semantic: SemanticCacheConfiguration? = nil,
                clock: some Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        self.clock = ClockSource(clock)
        let usable = semantic.flatMap { $0.embedder.isOnDevice && $0.embedder.dimension > 0 ? $0 : nil }
        self.semantic = usable
        self.index = usable.map { SemanticIndex(dimension: $0.embedder.dimension) }
        isSemantic = usable != nil
    }

    /// A stored answer to the same question worded differently (`SemanticCacheConfiguration`), marked
    /// `cached`; nil on a miss, which also remembers the prompt's vector for `store`.
    package func semanticLookup(_ key: CacheKey, request: GenerationRequest, privacy: PrivacyLevel) async -> GenerationResponse? {
        guard let semantic, index != nil, configuration.allows(privacy), let prompt = request.finalUserTurn,
              !prompt.isEmpty, prompt.utf8.count <= semantic.maxPromptBytes else { return nil }
        guard let vectors = try? await semantic.embedder.embed([prompt]), let vector = vectors.first,
              vector.count == semantic.embedder.dimension, vector.allSatisfy(\.isFinite) else { return nil }
        let scope = SemanticCacheScope(request: request)
        switch index?.lookup(vector, prompt: prompt, scope: scope, privacy: privacy, threshold: semantic.threshold, now: clock.now()) {
        case .hit(var response, _)?:
            stats.semanticHits += 1
            response.cached = true
            response.attempts = 0
            response.fallbackFrom = nil
            response.timings = ResponseTimings()
            return response
        case .miss(let refusals)?:
            for refusal in refusals { stats.semanticRefusals[refusal, default: 0] += 1 }
            if pendingVectors.count >= 256 { pendingVectors.removeAll(keepingCapacity: true) }
            pendingVectors[key] = (vector, scope, prompt)
            return nil
        case nil:
            return nil
        }
    }

    /// The stored response marked `cached` with no attempts, or nil (counted as a miss; an expired entry
    /// is dropped and counted as an expiration too).
    package func lookup(_ key: CacheKey) -> GenerationResponse? {
        guard let entry = table.touch(key) else { stats.misses += 1; return nil }
        if clock.now() >= entry.expiresAt {
            drop(key, entry, expired: true)
            stats.misses += 1
            return nil
        }
        stats.hits += 1
        var response = entry.response
        response.cached = true
        response.attempts = 0
        response.fallbackFrom = nil
        response.timings = ResponseTimings()
        return response
    }

    /// Stores a finished response; returns false when policy or size forbids it.
    @discardableResult
    package func store(_ response: GenerationResponse, for key: CacheKey, privacy: PrivacyLevel) -> Bool {
        let level = max(privacy, response.privacy)
        guard configuration.allows(level), configuration.ttl > .zero, configuration.maxEntries > 0 else { return false }
        let bytes = key.textByteCount + response.text.utf8.count + Self.entryOverheadBytes
        guard bytes <= configuration.maxBytes else { return false }
        var stored = response
        stored.cached = false
        stored.privacy = level
        let entry = Entry(response: stored, bytes: bytes, expiresAt: clock.now() + configuration.ttl)
        if let semantic, let pending = pendingVectors.removeValue(forKey: key) {
            index?.store(pending.vector, entry: .init(scope: pending.scope, prompt: pending.prompt, response: stored, privacy: level,
                                                      expiresAt: entry.expiresAt), maxEntries: semantic.maxEntries)
        }
        if let replaced = table.set(entry, for: key) { stats.bytes -= replaced.bytes }
        stats.bytes += bytes
        evictToBudget(keeping: key)
        stats.entries = table.count
        return true
    }

    public func statistics() -> CacheStatistics {
        var current = stats
        current.entries = table.count
        current.semanticEntries = index?.count ?? 0
        return current
    }

    public func removeAll() {
        table.removeAll()
        index?.removeAll()
        pendingVectors.removeAll()
        stats.bytes = 0
        stats.entries = 0
    }

    /// Keys from most to least recently used, for tests.
    func keysByRecency() -> [CacheKey] { table.keysByRecency }

    private func evictToBudget(keeping newest: CacheKey) {
        let now = clock.now()
        while table.count > configuration.maxEntries || stats.bytes > configuration.maxBytes,
              let (key, entry) = table.leastRecentlyUsed, key != newest {
            drop(key, entry, expired: now >= entry.expiresAt)
        }
    }

    private func drop(_ key: CacheKey, _ entry: Entry, expired: Bool) {
        table.remove(key)
        stats.bytes -= entry.bytes
        stats.entries = table.count
        if expired { stats.expirations += 1 } else { stats.evictions += 1 }
    }
}
