/// Limits of the response cache. Sensitive requests are never stored, whatever the configuration.
public struct CacheConfiguration: Sendable, Hashable {
    public var maxEntries: Int
    /// Budget for the estimated size of all entries (keys and response texts plus overhead).
    public var maxBytes: Int
    public var ttl: Duration
    /// Whether requests classified `.personal` may be stored.
    public var storesPersonal: Bool

    public init(maxEntries: Int = 1024, maxBytes: Int = 8 << 20, ttl: Duration = .seconds(300),
                storesPersonal: Bool = false) {
        self.maxEntries = maxEntries; self.maxBytes = maxBytes; self.ttl = ttl; self.storesPersonal = storesPersonal
    }

    /// Whether a request of this privacy level may be cached.
    public func allows(_ privacy: PrivacyLevel) -> Bool {
        switch privacy {
        case .public, .contextual: true
        case .personal: storesPersonal
        case .sensitive: false
        }
    }
}

/// Counters of the response cache.
public struct CacheStatistics: Sendable, Hashable {
    public var hits: Int
    public var misses: Int
    public var entries: Int
    public var bytes: Int
    public var evictions: Int
    public var expirations: Int
    public init(hits: Int = 0, misses: Int = 0, entries: Int = 0, bytes: Int = 0, evictions: Int = 0,
                expirations: Int = 0) {
        self.hits = hits; self.misses = misses; self.entries = entries; self.bytes = bytes
        self.evictions = evictions; self.expirations = expirations
    }
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
    /// Misses of the exact cache answered by the semantic cache.
    public var semanticHits = 0
    /// Close answers the semantic cache refused, by the guard's reason.
    public var semanticRefusals: [SemanticRefusal: Int] = [:]
    public var semanticEntries = 0
}
