/// Turns texts into vectors. The memory store and the semantic cache take one; the on-device sentence
/// encoder (`SwitchboardLocal`) is the one that keeps private text on the device.
public protocol Embedder: Sendable {
    /// The identifier of the model, stored beside the vectors it made: vectors of two models never mix.
    var modelID: String { get }
    /// The length of every vector this embedder returns.
    var dimension: Int { get }
    /// True when the texts never leave the device; a memory store accepts only such an embedder.
    var isOnDevice: Bool { get }
    /// One L2-normalized vector per text, in order.
    func embed(_ texts: [String]) async throws -> [[Float]]
    /// The vectors and the input tokens they cost (`Coordinator.embed` records them as a generation's
    /// usage). The default calls `embed(_:)` and reports no token count.
    func embedWithUsage(_ texts: [String]) async throws -> EmbeddingBatch
}

/// One embedding call's vectors and what it consumed, for the usage and metrics records a call leaves.
/// Never holds the texts.
public struct EmbeddingBatch: Sendable, Hashable {
    /// One L2-normalized vector per text, in order.
    public var vectors: [[Float]]
    /// Input tokens the model read: counted by an on-device tokenizer, or reported by a remote API
    /// (OpenAI's `usage.prompt_tokens`). Nil when the embedder cannot tell.
    public var inputTokens: Int?

    public init(vectors: [[Float]], inputTokens: Int? = nil) {
        self.vectors = vectors
        self.inputTokens = inputTokens.map { max(0, $0) }
    }
}

extension Embedder {
    /// The vectors with the tokens they cost. Embedders that know their usage implement
    /// `embedWithUsage(_:)`; the rest report none and the coordinator estimates it.
    public func embedWithUsage(_ texts: [String]) async throws -> EmbeddingBatch {
        EmbeddingBatch(vectors: try await embed(texts))
    }
}
