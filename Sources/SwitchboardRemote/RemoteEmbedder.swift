import Foundation
import SwitchboardCore

/// Embeddings from a remote API: OpenAI-compatible `/v1/embeddings` or Gemini `batchEmbedContents`
/// (Anthropic has none). Register it with `Coordinator.register(embedder:)`: it is not on the device, so
/// the coordinator hands it public text only.
///
/// Each call leaves a `UsageRecord` in `ledger` as a generation does (provider = the model id): the
/// input tokens the API reported (OpenAI's `usage.prompt_tokens`; Gemini reports none, so its calls are
/// billed on an estimate of a token per 4 characters), their cost at `pricing`, and the error's scrubbed
/// description for a failed call; never the texts. With `budgetUSD`, the estimate is reserved first and
/// a call that would pass the budget is refused before anything is sent.
///
/// Every number in a reply is checked: the count of vectors, their length, finite values, the `index`
/// of each item; a reply that breaks any of these is an error, never a trap or a short answer.
public struct RemoteEmbedder: Embedder {
    public enum API: Sendable, Hashable { case openAI, gemini }

    public let modelID: String
    public let dimension: Int
    public var isOnDevice: Bool { false }
    let api: API
    let endpoint: URL
    let credentials: APICredentials
    let timeout: Duration
    let transport: any HTTPTransport
    public let pricing: TokenPricing
    public let ledger: UsageLedger
    public let budgetUSD: Double?
    /// The ledger's and the metrics' name for this embedder.
    public var providerID: ProviderID { ProviderID(modelID) }
    /// Largest reply read: 2,048 texts × 3,072 floats as JSON text is about 120 MB, so one batch is capped
    /// by this instead (`maxBatch` texts per call).
    static let maxResponseBytes = 64 << 20
    static let maxBatch = 256

    /// OpenAI's API or any server that speaks it (llama.cpp `--embeddings`, Ollama, vLLM).
    public static func openAI(model: String = "text-embedding-3-small", dimension: Int = 1536,
                              baseURL: URL = URL(string: "https://api.openai.com/v1")!, credentials: APICredentials,
                              timeout: Duration = .seconds(30), transport: any HTTPTransport = URLSessionTransport(),
                              pricing: TokenPricing = .free, ledger: UsageLedger = UsageLedger(), budgetUSD: Double? = nil) -> RemoteEmbedder {
        RemoteEmbedder(modelID: model, dimension: dimension, api: .openAI, endpoint: baseURL.appendingPathComponent("embeddings"),
                       credentials: credentials, timeout: timeout, transport: transport, pricing: pricing, ledger: ledger, budgetUSD: budgetUSD)
    }

    public static func gemini(model: String = "text-embedding-004", dimension: Int = 768,
                              baseURL: URL = URL(string: "https://generativelanguage.googleapis.com/v1beta")!,
                              credentials: APICredentials, timeout: Duration = .seconds(30),
                              transport: any HTTPTransport = URLSessionTransport(), pricing: TokenPricing = .free,
                              ledger: UsageLedger = UsageLedger(), budgetUSD: Double? = nil) -> RemoteEmbedder {
        RemoteEmbedder(modelID: model, dimension: dimension, api: .gemini,
                       endpoint: baseURL.appendingPathComponent("models/\(model):batchEmbedContents"),
                       credentials: credentials, timeout: timeout, transport: transport, pricing: pricing, ledger: ledger, budgetUSD: budgetUSD)
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] { try await embedWithUsage(texts).vectors }

    /// The vectors and the input tokens the API reported (nil when any batch reported none).
    public func embedWithUsage(_ texts: [String]) async throws -> EmbeddingBatch {
        var vectors: [[Float]] = []
        var tokens: Int? = 0
        var start = 0
        while start < texts.count {
            let batch = Array(texts[start..<min(texts.count, start + Self.maxBatch)])
            let reply = try await embedBatch(batch)
            vectors += reply.vectors
            tokens = tokens.flatMap { total in reply.inputTokens.map { total.saturatingAdd($0) } }
            start += batch.count
        }
        return EmbeddingBatch(vectors: vectors, inputTokens: tokens)
    }

    /// One call, billed: the estimate reserved, then the reported (or estimated) tokens committed.
    private func embedBatch(_ texts: [String]) async throws -> EmbeddingBatch {
        let estimate = texts.reduce(0) { $0.saturatingAdd($1.count / 4 + 1) }
        let reservation = try await ledger.reserve(provider: providerID, estimatedCostUSD: pricing.cost(of: TokenUsage(promptTokens: estimate)),
                                                   budgetUSD: budgetUSD)
        do {
            let reply = try await send(texts)
            let reported = reply.inputTokens.map { TokenUsage(promptTokens: $0) }
            await ledger.commit(reservation, record: UsageRecord(provider: providerID, model: modelID, usage: reported,
                                                                 costUSD: pricing.cost(of: reported ?? TokenUsage(promptTokens: estimate)),
                                                                 error: nil))
            return reply
        } catch {
            let failure = ProviderError(error)
            await ledger.commit(reservation, record: UsageRecord(provider: providerID, model: modelID, usage: nil, costUSD: 0,
                                                                 error: failure.description))
            throw failure
        }
    }

    private func send(_ texts: [String]) async throws -> EmbeddingBatch {
        let key = try await resolveKey()
        var headers = ["content-type": "application/json"]
        let body: [String: Any]
        switch api {
        case .openAI:
            if let key { headers["authorization"] = "Bearer " + key.revealForAuthenticationHeader() }
            body = ["model": modelID, "input": texts, "encoding_format": "float"]
        case .gemini:
            if let key { headers["x-goog-api-key"] = key.revealForAuthenticationHeader() }
            body = ["requests": texts.map { ["model": "models/\(modelID)", "content": ["parts": [["text": $0]]]] }]
        }
        let request = HTTPRequest(url: endpoint, headers: headers, body: try JSONSerialization.data(withJSONObject: body),
                                  timeout: timeout, idleTimeout: timeout, maxResponseBytes: Self.maxResponseBytes)
        let response = try await transport.send(request)
        guard (200..<300).contains(response.status) else {
            let detail = String(decoding: response.body.prefix(300), as: UTF8.self)
            throw ProviderError.server(status: response.status, message: key.map { $0.scrub(detail) } ?? detail)
        }
        return try Self.decodeReply(response.body, api: api, count: texts.count, dimension: dimension)
    }

    /// The vectors of a reply, in input order, each L2-normalized; throws on any malformed part.
    static func decode(_ body: Data, api: API, count: Int, dimension: Int) throws -> [[Float]] {
        try decodeReply(body, api: api, count: count, dimension: dimension).vectors
    }

    /// The vectors and the reported input tokens: OpenAI's `usage.prompt_tokens` when it is a
    /// non-negative integer (clamped to 2^30 as every reported count), else nil.
    static func decodeReply(_ body: Data, api: API, count: Int, dimension: Int) throws -> EmbeddingBatch {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw ProviderError.malformedResponse("the embeddings reply is not a JSON object")
        }
        var vectors = [[Float]?](repeating: nil, count: count)
        switch api {
        case .openAI:
            guard let items = object["data"] as? [[String: Any]], items.count == count else {
                throw ProviderError.malformedResponse("the embeddings reply does not hold \(count) items")
            }
            for (position, item) in items.enumerated() {
                // An index that is there but no integer (1e300, 0.5, "0") is damage, not "use the position".
                let index = item["index"] == nil ? position : (item["index"] as? NSNumber).flatMap { Int(exactly: $0.doubleValue) } ?? -1
                guard (0..<count).contains(index), vectors[index] == nil else {
                    throw ProviderError.malformedResponse("an embedding's index is out of range or repeated")
                }
                vectors[index] = try vector(item["embedding"], dimension: dimension)
            }
        case .gemini:
            guard let items = object["embeddings"] as? [[String: Any]], items.count == count else {
                throw ProviderError.malformedResponse("the embeddings reply does not hold \(count) items")
            }
            for (index, item) in items.enumerated() { vectors[index] = try vector(item["values"], dimension: dimension) }
        }
        var tokens: Int?
        if let usage = object["usage"] as? [String: Any], let number = usage["prompt_tokens"] as? NSNumber,
           let value = Int(exactly: number.doubleValue), value >= 0 {
            tokens = min(value, ReportedUsage.maxTokens)
        }
        return EmbeddingBatch(vectors: vectors.map { $0 ?? [] }, inputTokens: tokens)
    }

    private static func vector(_ value: Any?, dimension: Int) throws -> [Float] {
        guard let numbers = value as? [NSNumber], numbers.count == dimension else {
            throw ProviderError.malformedResponse("an embedding is not \(dimension) numbers")
        }
        var vector = numbers.map { Float($0.doubleValue) }
        guard vector.allSatisfy(\.isFinite) else { throw ProviderError.malformedResponse("an embedding holds a non-finite value") }
        let norm = vector.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0, norm.isFinite else { throw ProviderError.malformedResponse("an embedding is all zeros") }
        for index in vector.indices { vector[index] /= norm }
        return vector
    }

    private func resolveKey() async throws -> APIKey? {
        switch credentials {
        case .none: return nil
        case .key(let key): return key
        case .store(let store, let reference):
            guard let key = try await store.get(reference) else {
                throw ProviderError.authentication("no API key is stored for \(reference)")
            }
            return key
        }
    }
}
