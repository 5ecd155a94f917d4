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
    /// Input tokens: as the embedder counted them (the on-device tokenizer) or its API reported them,
    /// else the analyzer's estimate. No completion tokens.
    public var usage: TokenUsage
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
    ///
    /// A call leaves the traces a generation leaves, through the same paths: a `CallRecord` per embedder
    /// tried (latency, success or failure, fallback) in `metrics`, keyed by the embedder's model id; the
    /// input tokens in the response's `usage` (a remote embedder also commits them, priced, to its
    /// `UsageLedger`); and, with an audit trail, one `RoutingAuditRecord` of kind `embedding` (privacy
    /// level, categories found, embedders excluded and tried, the one that answered). Never the texts.
    public nonisolated func embed(_ texts: [String]) async throws(EmbeddingError) -> EmbeddingResponse {
        guard !texts.isEmpty else { throw .emptyInput }
        let analysis = embeddingAnalysis(texts)
        let policy = configuration.privacy
        var eligible: [any Embedder] = []
        var excluded: [Ineligibility] = []
        for embedder in embedders.all {
            if policy.mayDispatch(analysis.privacy, onDevice: embedder.isOnDevice) {
                eligible.append(embedder)
            } else {
                excluded.append(Ineligibility(provider: ProviderID(embedder.modelID), reason: .privacy))
            }
        }
        var attempts: [RoutingAuditRecord.Attempt] = []
        var failed: [String] = []
        var previous: ProviderID?
        for embedder in eligible where !Task.isCancelled {
            let id = ProviderID(embedder.modelID), start = clock.now()
            attempts.append(RoutingAuditRecord.Attempt(provider: id, onDevice: embedder.isOnDevice))
            let result: Result<EmbeddingBatch, ProviderError>
            do { result = .success(try Self.checked(try await embedder.embedWithUsage(texts), count: texts.count,
                                                    dimension: embedder.dimension)) } catch {
                result = .failure(ProviderError(error))
            }
            if let previous { await metrics.recordFallback(from: previous, to: id) }
            let outcome: CallRecord.Outcome = switch result {
            case .success: .success
            case .failure(.cancelled): .cancelled
            case .failure(let error): .failure(error)
            }
            metrics.submit(CallRecord(provider: id, outcome: outcome, latency: clock.now() - start, isFallback: previous != nil))
            switch result {
            case .success(let batch):
                await auditEmbedding(analysis, excluded: excluded, attempts: attempts, chosen: id, outcome: .completed)
                return EmbeddingResponse(vectors: batch.vectors, modelID: embedder.modelID, dimension: embedder.dimension,
                                         privacy: analysis.privacy, isOnDevice: embedder.isOnDevice, failedEmbedders: failed,
                                         usage: TokenUsage(promptTokens: batch.inputTokens ?? analysis.estimatedPromptTokens))
            case .failure(let error):
                attempts[attempts.count - 1].failure = error.auditKind
                failed.append(embedder.modelID)
                previous = id
            }
        }
        await auditEmbedding(analysis, excluded: excluded, attempts: attempts, chosen: nil, outcome: Task.isCancelled ? .cancelled : .failed)
        if eligible.isEmpty { throw .noEligibleEmbedder(privacy: analysis.privacy) }
        throw .allEmbeddersFailed(failed)
    }

    /// The batch as one request: the most private text's level, every kind of entity found (one of
    /// each, for the audit trail), the estimated tokens of all texts.
    nonisolated func embeddingAnalysis(_ texts: [String]) -> RequestAnalysis {
        var merged = RequestAnalysis(privacy: .public)
        var kinds = Set<EntityKind>()
        for text in texts {
            let one = analyzer.analyze(GenerationRequest(prompt: text))
            merged.privacy = max(merged.privacy, one.privacy)
            merged.estimatedPromptTokens = merged.estimatedPromptTokens.saturatingAdd(one.estimatedPromptTokens)
            for entity in one.entities where kinds.insert(entity.kind).inserted { merged.entities.append(entity) }
        }
        return merged
    }

    /// The embedder's answer if it is whole: one vector per text, each of its dimension, all finite.
    static func checked(_ batch: EmbeddingBatch, count: Int, dimension: Int) throws(ProviderError) -> EmbeddingBatch {
        guard batch.vectors.count == count, batch.vectors.allSatisfy({ $0.count == dimension && $0.allSatisfy(\.isFinite) }) else {
            throw .malformedResponse("the embedder returned \(batch.vectors.count) vectors, not \(count) finite ones of length \(dimension)")
        }
        return batch
    }

    private nonisolated func auditEmbedding(_ analysis: RequestAnalysis, excluded: [Ineligibility], attempts: [RoutingAuditRecord.Attempt],
                                            chosen: ProviderID?, outcome: RoutingAuditRecord.Outcome) async {
        guard let audit else { return }
        let requestID = state.withLock { $0.nextRequestID &+= 1; return $0.nextRequestID }
        await audit.record(RoutingAuditRecord(requestID: requestID, time: clock.now().seconds, analysis: analysis, excluded: excluded,
                                              attempts: attempts, chosen: chosen, outcome: outcome, kind: .embedding))
    }
}
