import Synchronization
import SwitchboardCore

/// Texts turned into vectors, and where.
public struct EmbeddingResponse: Sendable, Hashable {
    /// One L2-normalized vector per text, in order.
    public var vectors: [[Float]]
    public var modelID: String
    public var dimension: Int
    /// The most private of the texts: what decided where they could be embedded.
    public var privacy: PrivacyLevel
    public var isOnDevice: Bool
    /// Embedders that failed before this one answered, in order.
    public var failedEmbedders: [String]
}

/// Why `embed` gave no vectors.
public enum EmbeddingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No registered embedder may see texts this private (only on-device ones may see private text).
    case noEligibleEmbedder(privacy: PrivacyLevel)
    /// Every eligible embedder failed or returned malformed vectors (model ids in order).
    case allEmbeddersFailed([String])
    case emptyInput

    public var description: String {
        switch self {
        case .noEligibleEmbedder(let level): "no registered embedder may see \(level) text"
        case .allEmbeddersFailed(let ids): "every eligible embedder failed: \(ids.joined(separator: ", "))"
        case .emptyInput: "nothing to embed"
        }
    }
}

/// The embedders a coordinator routes to, in registration order.
final class EmbedderList: Sendable {
    private let list = Mutex<[any Embedder]>([])
    func append(_ embedder: any Embedder) { list.withLock { $0.append(embedder) } }
    var all: [any Embedder] { list.withLock { $0 } }
}

extension Coordinator {
    /// Adds an embedder. Private texts go only to on-device ones; otherwise the first registered
    /// eligible embedder answers and the next takes over if it fails.
    public nonisolated func register(embedder: any Embedder) { embedders.append(embedder) }

    /// Embeds a batch of texts, analyzed like a request: the batch is as private as its most private
    /// text, and text the privacy policy keeps home is embedded only on the device.
    public nonisolated func embed(_ texts: [String]) async throws(EmbeddingError) -> EmbeddingResponse {
        guard !texts.isEmpty else { throw .emptyInput }
        var privacy = PrivacyLevel.public
        for text in texts where privacy < .sensitive {
            privacy = max(privacy, analyzer.analyze(GenerationRequest(prompt: text)).privacy)
        }
        let policy = configuration.privacy
        let eligible = embedders.all.filter { policy.mayDispatch(privacy, onDevice: $0.isOnDevice) }
        guard !eligible.isEmpty else { throw .noEligibleEmbedder(privacy: privacy) }
        var failed: [String] = []
        for embedder in eligible {
            guard let vectors = try? await embedder.embed(texts), vectors.count == texts.count,
                  vectors.allSatisfy({ $0.count == embedder.dimension && $0.allSatisfy(\.isFinite) }) else {
                failed.append(embedder.modelID)
                continue
            }
            return EmbeddingResponse(vectors: vectors, modelID: embedder.modelID, dimension: embedder.dimension, privacy: privacy,
                                     isOnDevice: embedder.isOnDevice, failedEmbedders: failed)
        }
        throw .allEmbeddersFailed(failed)
    }
}
