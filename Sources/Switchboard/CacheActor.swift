import SwitchboardCore

/// Exact-match response cache: LRU within an entry and byte budget, entries expire after the TTL on
/// the injected clock. Sensitive requests are never stored; personal ones only when configured.
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

    public init(configuration: CacheConfiguration = .init(), clock: some Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        self.clock = ClockSource(clock)
    }

    /// The stored response marked `cached` with no attempts, or nil (counted as a miss; an expired entry
    /// is dropped and counted as an expiration too).
    public func lookup(_ key: CacheKey) -> GenerationResponse? {
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
    public func store(_ response: GenerationResponse, for key: CacheKey, privacy: PrivacyLevel) -> Bool {
        let level = max(privacy, response.privacy)
        guard configuration.allows(level), configuration.ttl > .zero, configuration.maxEntries > 0 else { return false }
        let bytes = key.textByteCount + response.text.utf8.count + Self.entryOverheadBytes
        guard bytes <= configuration.maxBytes else { return false }
        var stored = response
        stored.cached = false
        stored.privacy = level
        let entry = Entry(response: stored, bytes: bytes, expiresAt: clock.now() + configuration.ttl)
        if let replaced = table.set(entry, for: key) { stats.bytes -= replaced.bytes }
        stats.bytes += bytes
        evictToBudget(keeping: key)
        stats.entries = table.count
        return true
    }

    public func statistics() -> CacheStatistics {
        var current = stats
        current.entries = table.count
        return current
    }

    public func removeAll() {
        table.removeAll()
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
