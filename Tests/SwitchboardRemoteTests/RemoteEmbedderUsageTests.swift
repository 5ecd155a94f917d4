import Foundation
import Testing
@testable import Switchboard
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("Remote embeddings: usage, cost and the coordinator's records")
struct RemoteEmbedderUsageTests {
    static let key = APIKey("sk-embed-test-0123456789abcdef")!
    static let price = TokenPricing(inputPerMillion: 20, outputPerMillion: 0)

    @Test("OpenAI's usage.prompt_tokens becomes the ledger's input tokens and cost, the response's usage, a metrics record")
    func reportedUsageThroughTheCoordinator() async throws {
        let reply = #"{"data":[{"index":0,"embedding":[1,0,0]},{"index":1,"embedding":[0,1,0]}],"usage":{"prompt_tokens":11,"total_tokens":11}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let ledger = UsageLedger()
        let embedder = RemoteEmbedder.openAI(model: "embed-m", dimension: 3, baseURL: server.baseURL, credentials: .key(Self.key),
                                             pricing: Self.price, ledger: ledger)
        let audit = AuditTrail()
        let coordinator = Coordinator(audit: audit)
        coordinator.register(embedder: embedder)
        let response = try await coordinator.embed(["first text", "second text"])
        #expect(response.usage.promptTokens == 11)
        let totals = await ledger.totals(for: "embed-m")
        #expect(totals.requests == 1 && totals.inputTokens == 11 && totals.outputTokens == 0)
        #expect(abs(totals.costUSD - 11 * 20 / 1_000_000) < 1e-12)
        let record = try #require(await ledger.records().first)
        #expect(record.model == "embed-m" && record.error == nil && record.usage?.promptTokens == 11)
        #expect(await coordinator.metrics.metrics(for: "embed-m")?.successes == 1)
        let audited = try #require(await audit.recent().first)
        #expect(audited.kind == .embedding && audited.chosen == "embed-m" && audited.leftDevice)
        #expect(!"\(await ledger.records())".contains("first text"))
    }

    @Test("Without reported usage (Gemini) the call is billed on the estimate; the response falls back to the analyzer's")
    func estimatedWithoutUsage() async throws {
        let server = try LoopbackHTTPServer([.json(200, #"{"embeddings":[{"values":[2,0]}]}"#)])
        defer { server.stop() }
        let ledger = UsageLedger()
        let embedder = RemoteEmbedder.gemini(model: "g-embed", dimension: 2, baseURL: server.baseURL, credentials: .key(Self.key),
                                             pricing: Self.price, ledger: ledger)
        let batch = try await embedder.embedWithUsage([String(repeating: "word ", count: 40)])
        #expect(batch.inputTokens == nil)
        let record = try #require(await ledger.records().first)
        #expect(record.usage == nil && record.costUSD > 0)
    }

    @Test("Usage numbers that are not counts are ignored, never trusted", arguments: [
        #""usage":{"prompt_tokens":-3}"#, #""usage":{"prompt_tokens":1e300}"#, #""usage":{"prompt_tokens":"12"}"#,
        #""usage":{"prompt_tokens":2.5}"#, #""usage":[]"#,
    ])
    func badUsage(usage: String) throws {
        let reply = #"{"data":[{"index":0,"embedding":[1,0,0]}],"# + usage + "}"
        let batch = try RemoteEmbedder.decodeReply(Data(reply.utf8), api: .openAI, count: 1, dimension: 3)
        #expect(batch.inputTokens == nil && batch.vectors == [[1, 0, 0]])
        let huge = try RemoteEmbedder.decodeReply(Data(#"{"data":[{"embedding":[1,0,0]}],"usage":{"prompt_tokens":9007199254740992}}"#.utf8),
                                                  api: .openAI, count: 1, dimension: 3)
        #expect(huge.inputTokens == 1 << 30)
    }

    @Test("A failed call is in the ledger with its scrubbed error and no cost; a budget refuses before sending")
    func failureAndBudget() async throws {
        let server = try LoopbackHTTPServer([.json(500, #"{"error":"boom sk-embed-test-0123456789abcdef"}"#)])
        defer { server.stop() }
        let ledger = UsageLedger()
        let embedder = RemoteEmbedder.openAI(model: "embed-m", dimension: 3, baseURL: server.baseURL, credentials: .key(Self.key),
                                             pricing: Self.price, ledger: ledger)
        await #expect(throws: ProviderError.self) { _ = try await embedder.embed(["x"]) }
        let record = try #require(await ledger.records().first)
        #expect(record.costUSD == 0 && record.error != nil && !(record.error ?? "").contains("0123456789abcdef"))
        #expect(await ledger.totals(for: "embed-m").failedRequests == 1)

        let broke = RemoteEmbedder.openAI(model: "embed-m", dimension: 3, baseURL: server.baseURL, credentials: .key(Self.key),
                                          pricing: TokenPricing(inputPerMillion: 1_000_000, outputPerMillion: 0), ledger: UsageLedger(),
                                          budgetUSD: 0.5)
        let before = server.requests.count
        await #expect(throws: ProviderError.self) { _ = try await broke.embed(["a text that costs more than the budget"]) }
        #expect(server.requests.count == before)
    }
}
