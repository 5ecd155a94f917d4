import Foundation
import Synchronization
import Testing
@testable import Switchboard
import SwitchboardTestKit

/// An embedder that reports a token count and can fail with a given error, recording what it was sent.
final class MeteredEmbedder: Embedder, Sendable {
    let modelID: String
    let dimension = 16
    let isOnDevice: Bool
    let failure: ProviderError?
    let tokensPerText: Int
    private let received = Mutex<[String]>([])
    init(_ modelID: String, onDevice: Bool, tokensPerText: Int = 5, failure: ProviderError? = nil) {
        self.modelID = modelID; isOnDevice = onDevice; self.tokensPerText = tokensPerText; self.failure = failure
    }
    var texts: [String] { received.withLock { $0 } }
    func embed(_ texts: [String]) async throws -> [[Float]] { try await embedWithUsage(texts).vectors }
    func embedWithUsage(_ texts: [String]) async throws -> EmbeddingBatch {
        received.withLock { $0 += texts }
        if let failure { throw failure }
        return EmbeddingBatch(vectors: try await HashingEmbedder(dimension: dimension).embed(texts), inputTokens: tokensPerText * texts.count)
    }
}

@Suite("Embedding calls leave the traces of a generation")
struct EmbeddingRecordingTests {
    @Test("A public embed call: a metrics record for the embedder, its tokens as usage, an audit record of kind embedding")
    func publicCallIsRecorded() async throws {
        let audit = AuditTrail()
        let remote = MeteredEmbedder("remote-embed", onDevice: false, tokensPerText: 7)
        let coordinator = Coordinator(audit: audit)
        coordinator.register(embedder: remote)
        let response = try await coordinator.embed(["What is the capital of France?", "Where is Lyon?"])
        #expect(response.usage == TokenUsage(promptTokens: 14))
        let metrics = try #require(await coordinator.metrics.metrics(for: "remote-embed"))
        #expect(metrics.requests == 1 && metrics.successes == 1 && metrics.failures == 0)
        #expect(metrics.latency.count == 1)
        let record = try #require(await audit.recent().first)
        #expect(record.kind == .embedding && record.outcome == .completed && record.chosen == "remote-embed")
        #expect(record.attempts == [RoutingAuditRecord.Attempt(provider: "remote-embed", onDevice: false)])
        #expect(record.privacy == .public && record.leftDevice)
        let line = String(decoding: await audit.jsonLines(), as: UTF8.self)
        #expect(line.contains("\"kind\":\"embedding\""))
        #expect(try JSONDecoder().decode(RoutingAuditRecord.self, from: Data(line.utf8.dropLast())) == record)
    }

    @Test("A sensitive text: the audit record has its level, the excluded remote and the device embedder, never the text")
    func sensitiveAuditHoldsNoText() async throws {
        let audit = AuditTrail()
        let remote = MeteredEmbedder("remote-embed", onDevice: false)
        let local = MeteredEmbedder("local-embed", onDevice: true, tokensPerText: 9)
        let coordinator = Coordinator(audit: audit)
        coordinator.register(embedder: remote)
        coordinator.register(embedder: local)
        let secret = "my SSN is 123-45-6789"
        let response = try await coordinator.embed(["The weather is nice", secret])
        #expect(remote.texts.isEmpty)
        #expect(response.usage.promptTokens == 18)
        let record = try #require(await audit.recent().first)
        #expect(record.privacy == .sensitive && record.kind == .embedding)
        #expect(!record.categories.isEmpty)
        #expect(record.excluded.map(\.provider) == ["remote-embed"] && record.excluded.first?.reason == "privacy")
        #expect(record.attempts == [RoutingAuditRecord.Attempt(provider: "local-embed", onDevice: true)] && !record.leftDevice)
        let line = String(decoding: await audit.jsonLines(), as: UTF8.self)
        #expect(!line.contains("6789") && !line.contains("SSN") && !line.contains("weather"))
        #expect(await coordinator.metrics.metrics(for: "remote-embed") == nil)
        #expect(await coordinator.metrics.metrics(for: "local-embed")?.successes == 1)
    }

    @Test("A failing embedder: its failure and the fallback in the metrics, its error kind (no message) in the audit trail")
    func failureAndFallbackAreRecorded() async throws {
        let audit = AuditTrail()
        let remote = MeteredEmbedder("remote-embed", onDevice: false, failure: .server(status: 503, message: "overloaded sk-secret-echo"))
        let local = MeteredEmbedder("local-embed", onDevice: true)
        let coordinator = Coordinator(audit: audit)
        coordinator.register(embedder: remote)
        coordinator.register(embedder: local)
        let response = try await coordinator.embed(["Tell me about tides"])
        #expect(response.failedEmbedders == ["remote-embed"])
        let failed = try #require(await coordinator.metrics.metrics(for: "remote-embed"))
        #expect(failed.failures == 1 && failed.successes == 0 && failed.fallbacksOut == 1)
        let answered = try #require(await coordinator.metrics.metrics(for: "local-embed"))
        #expect(answered.successes == 1 && answered.fallbacksIn == 1)
        let record = try #require(await audit.recent().first)
        #expect(record.attempts == [RoutingAuditRecord.Attempt(provider: "remote-embed", onDevice: false, failure: "server 503"),
                                    RoutingAuditRecord.Attempt(provider: "local-embed", onDevice: true)])
        #expect(!String(decoding: await audit.jsonLines(), as: UTF8.self).contains("sk-secret"))
    }

    @Test("Every embedder failing, or none eligible: a failed audit record and a typed error")
    func failuresAreAudited() async throws {
        let audit = AuditTrail()
        let coordinator = Coordinator(audit: audit)
        coordinator.register(embedder: MeteredEmbedder("remote-embed", onDevice: false, failure: .timeout))
        await #expect(throws: EmbeddingError.allEmbeddersFailed(["remote-embed"])) { try await coordinator.embed(["hello there"]) }
        await #expect(throws: EmbeddingError.noEligibleEmbedder(privacy: .sensitive)) {
            try await coordinator.embed(["password: hunter2-Correct-Horse"])
        }
        let records = await audit.recent()
        #expect(records.map(\.outcome) == [.failed, .failed])
        #expect(records.map(\.kind) == [.embedding, .embedding])
        #expect(records[0].attempts.first?.failure == "timeout" && records[1].attempts.isEmpty)
        #expect(records[1].excluded.map(\.provider) == ["remote-embed"])
        #expect(!String(decoding: await audit.jsonLines(), as: UTF8.self).contains("hunter2"))
        #expect(await coordinator.metrics.metrics(for: "remote-embed")?.failures == 1)
    }

    @Test("An embedder that reports no tokens is billed the analyzer's estimate; a wrong-sized answer is a failure")
    func estimateAndMalformed() async throws {
        let coordinator = Coordinator()
        coordinator.register(embedder: RecordingEmbedder("quiet-embed", onDevice: true))
        let response = try await coordinator.embed(["A sentence of about forty characters long."])
        #expect(response.usage.promptTokens > 0 && response.usage.completionTokens == 0)
        #expect(throws: ProviderError.self) {
            _ = try Coordinator.checked(EmbeddingBatch(vectors: [[1, 0]]), count: 2, dimension: 2)
        }
        #expect(throws: ProviderError.self) {
            _ = try Coordinator.checked(EmbeddingBatch(vectors: [[.nan, 0]]), count: 1, dimension: 2)
        }
    }
}
