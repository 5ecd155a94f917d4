import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("Usage, cost and budgets")
struct BudgetTests {
    static let pricing = TokenPricing(inputPerMillion: 10, outputPerMillion: 30)

    @Test func requestOverBudgetIsRefusedBeforeAnyHTTPCall() async throws {
        let server = try LoopbackHTTPServer([])
        defer { server.stop() }
        // Worst case: 100 prompt tokens × $10/M + 1000 output tokens × $30/M = $0.031 > $0.01.
        let provider = openAI(server, settings: settings(pricing: Self.pricing, budget: 0.01))
        let error = await failure(of: provider.generate(providerRequest(maxTokens: 1000, promptTokens: 100)))
        guard case .budgetExceeded? = error else { Issue.record("expected budgetExceeded, got \(String(describing: error))"); return }
        #expect(error?.classification == .fallbackOnly)
        #expect(server.snapshot.connections == 0)
        #expect(await provider.usage().requests == 0)
    }

    @Test func spendingAccumulatesUntilTheBudgetRefuses() async throws {
        let reply = #"{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":1000}}"#
        let server = try LoopbackHTTPServer([.json(200, reply), .json(200, reply)])
        defer { server.stop() }
        let ledger = UsageLedger()
        // Each call costs $0.04; each reservation is at most 1000 × $10/M + 1000 × $30/M = $0.04.
        let provider = openAI(server, settings: settings(streaming: false, pricing: Self.pricing, budget: 0.05, ledger: ledger))
        _ = try await collect(provider.generate(providerRequest(maxTokens: 1000, promptTokens: 1000)))
        let totals = await provider.usage()
        #expect(totals.requests == 1 && totals.inputTokens == 1000 && totals.outputTokens == 1000)
        #expect(abs(totals.costUSD - 0.04) < 1e-12)
        let error = await failure(of: provider.generate(providerRequest(maxTokens: 1000, promptTokens: 1000)))
        guard case .budgetExceeded? = error else { Issue.record("expected budgetExceeded, got \(String(describing: error))"); return }
        #expect(server.requests.count == 1)
    }

    @Test func concurrentReservationsCountAgainstTheBudget() async throws {
        let ledger = UsageLedger()
        let first = try await ledger.reserve(provider: "p", estimatedCostUSD: 0.6, budgetUSD: 1)
        await #expect(throws: ProviderError.self) { _ = try await ledger.reserve(provider: "p", estimatedCostUSD: 0.6, budgetUSD: 1) }
        _ = try await ledger.reserve(provider: "q", estimatedCostUSD: 0.6, budgetUSD: 1)
        await ledger.commit(first, record: UsageRecord(provider: "p", model: "m", usage: TokenUsage(promptTokens: 1, completionTokens: 1),
                                                       costUSD: 0.1, error: nil))
        _ = try await ledger.reserve(provider: "p", estimatedCostUSD: 0.6, budgetUSD: 1)
        #expect(await ledger.totals(for: "p").costUSD == 0.1)
    }

    @Test func failedCallsAreCountedWithoutCost() async throws {
        let server = try LoopbackHTTPServer([.json(500, #"{"error":{"message":"boom"}}"#)])
        defer { server.stop() }
        let provider = openAI(server, settings: settings(pricing: Self.pricing, budget: 1))
        _ = await failure(of: provider.generate(providerRequest()))
        let totals = await provider.usage()
        #expect(totals.requests == 1 && totals.failedRequests == 1 && totals.costUSD == 0)
    }

    @Test func priceTableLooksUpModels() {
        let table = PriceTable(["big": Self.pricing], fallback: .free)
        #expect(table.pricing(for: "big") == Self.pricing)
        #expect(table.pricing(for: "other") == .free)
    }
}
