import SwitchboardCore

/// Turns the semantic cache on: `CacheActor(semantic: SemanticCacheConfiguration(embedder: encoder))`.
///
/// A miss of the exact cache embeds the final user turn with `embedder` (on device: a remote embedder is
/// ignored, since the prompt may be private) and serves a stored answer when one asked in the same
/// context and scope (`SemanticCacheScope`), at the same privacy level or lower, is at least `threshold`
/// similar and `SemanticGuard` finds no differing negation, number or name.
public struct SemanticCacheConfiguration: Sendable {
    public var embedder: any Embedder
    /// Cosine similarity from which two final turns count as one question. The default was chosen on
    /// labeled pairs with all-MiniLM-L6-v2 (`Docs/Embeddings.md`); another embedder needs its own.
    public var threshold: Float
    /// Semantic entries kept (least recently used evicted), beside the exact cache's.
    public var maxEntries: Int
    /// Final turns longer than this are not embedded (a long text is rarely asked twice in other words).
    public var maxPromptBytes: Int

    public init(embedder: any Embedder, threshold: Float = 0.88, maxEntries: Int = 10_000, maxPromptBytes: Int = 2048) {
        self.embedder = embedder
        self.threshold = threshold
        self.maxEntries = max(0, maxEntries)
        self.maxPromptBytes = max(0, maxPromptBytes)
    }
}
