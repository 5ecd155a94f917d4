import Foundation
import SwitchboardCore
import SwitchboardInference

/// The on-device sentence encoder as an `Embedder`: all-MiniLM-L6-v2 (or another BERT sentence model)
/// run by the engine. Texts never leave the device, so the memory store, the semantic cache and
/// `Coordinator.embed` may give it private text.
///
/// An actor because the encoder runs one batch at a time on its own kernel threads.
public actor OnDeviceEmbedder: Embedder {
    public nonisolated let modelID: String
    public nonisolated let dimension: Int
    public nonisolated var isOnDevice: Bool { true }
    private let encoder: BertEncoder

    /// A model folder as `Scripts/fetch-model.sh minilm` stores it (`model.safetensors`, `tokenizer.json`,
    /// `config.json`), by default the registry's folder.
    public init(directory: String? = nil, modelID: String = "local-minilm-l6-v2", threads: Int = 2) throws(BertError) {
        let folder = directory ?? OnDeviceEmbedder.defaultDirectory()
        encoder = try BertEncoder(directory: folder, threads: threads)
        dimension = encoder.dimension
        self.modelID = modelID
    }

    /// `$SWITCHBOARD_EMBEDDING_MODEL_PATH`, else `all-MiniLM-L6-v2` in the model folder.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["SWITCHBOARD_EMBEDDING_MODEL_PATH"], !path.isEmpty { return path }
        return (ModelRegistry.defaultModelDirectory(environment: environment) as NSString).appendingPathComponent("all-MiniLM-L6-v2")
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        try await embedWithUsage(texts).vectors
    }

    /// The vectors and the ids the encoder read (`[CLS]` and `[SEP]` included, after truncation).
    public func embedWithUsage(_ texts: [String]) async throws -> EmbeddingBatch {
        try Task.checkCancellation()
        let ids = texts.map { encoder.tokenizer.encode($0, maxLength: encoder.maxSequenceLength) }
        let vectors = try encoder.embed(ids: ids)
        return EmbeddingBatch(vectors: vectors, inputTokens: ids.reduce(0) { $0.saturatingAdd($1.count) })
    }

    /// Token ids as the encoder sees them (for figures: tokens per second).
    public func tokenCount(_ text: String) -> Int { encoder.tokenizer.encode(text, maxLength: encoder.maxSequenceLength).count }
}
