import Foundation
import SwitchboardCore

/// Per-provider totals.
public struct ProviderUsageTotals: Sendable, Hashable, Codable {
    public var requests = 0
    public var failedRequests = 0
    public var inputTokens = 0
    public var outputTokens = 0
    public var costUSD = 0.0
    public init() {}
}

/// One finished call, for the usage log. Never holds prompt text or key material.
public struct UsageRecord: Sendable, Hashable, Codable {
    public var provider: ProviderID
    public var model: String
    public var usage: TokenUsage?
    public var costUSD: Double
    /// Nil on success; the error's (scrubbed) description otherwise.
    public var error: String?
    public init(provider: ProviderID, model: String, usage: TokenUsage?, costUSD: Double, error: String?) {
        self.provider = provider; self.model = model; self.usage = usage; self.costUSD = costUSD; self.error = error
    }
}

/// A budget hold taken before a request is sent.
package struct UsageReservation: Sendable, Hashable {
    package let id: Int
    package let provider: ProviderID
    package let estimatedCostUSD: Double
}

/// Spending and token totals per provider, with budgets enforced before any HTTP call: a request's
/// worst case (estimated prompt tokens and `maxTokens` at the provider's prices) is reserved, and
/// refused with `ProviderError.budgetExceeded` when spent plus reserved plus it would pass the budget.
public actor UsageLedger {
    private var totals: [ProviderID: ProviderUsageTotals] = [:]
    private var reserved: [Int: UsageReservation] = [:]
    private var nextReservation = 0
    private var log: [UsageRecord] = []
    private let logCapacity: Int

    public init(logCapacity: Int = 1000) { self.logCapacity = max(1, logCapacity) }

    package func reserve(provider: ProviderID, estimatedCostUSD: Double, budgetUSD: Double?) throws -> UsageReservation {
        // A NaN estimate would pass every comparison: count it as unaffordable instead.
        let estimatedCostUSD = estimatedCostUSD.isNaN ? .infinity : max(0, estimatedCostUSD)
        if let budgetUSD {
            let spent = totals[provider]?.costUSD ?? 0
            let held = reserved.values.filter { $0.provider == provider }.reduce(0) { $0 + $1.estimatedCostUSD }
            if spent + held + estimatedCostUSD > budgetUSD {
                throw ProviderError.budgetExceeded(
                    "\(provider) has spent or reserved $\(dollars(spent + held)) of its $\(dollars(budgetUSD)) budget; "
                        + "this request could cost up to $\(dollars(estimatedCostUSD))")
            }
        }
        nextReservation += 1
        let reservation = UsageReservation(id: nextReservation, provider: provider, estimatedCostUSD: estimatedCostUSD)
        reserved[reservation.id] = reservation
        return reservation
    }

    /// Records a finished call and frees its reservation. Counts come from servers: each is clamped
    /// to `0...2^30` and the totals saturate, so no report can trap the ledger or lower what was spent.
    package func commit(_ reservation: UsageReservation?, record: UsageRecord) {
        if let reservation { reserved[reservation.id] = nil }
        var record = record
        record.usage = record.usage.map(ReportedUsage.sanitized)
        record.costUSD = record.costUSD.isNaN ? 0 : max(0, record.costUSD)
        var entry = totals[record.provider] ?? ProviderUsageTotals()
        entry.requests = entry.requests.saturatingAdd(1)
        if record.error != nil { entry.failedRequests = entry.failedRequests.saturatingAdd(1) }
        entry.inputTokens = entry.inputTokens.saturatingAdd(record.usage?.promptTokens ?? 0)
        entry.outputTokens = entry.outputTokens.saturatingAdd(record.usage?.completionTokens ?? 0)
        entry.costUSD += record.costUSD
        totals[record.provider] = entry
        log.append(record)
        if log.count > logCapacity { log.removeFirst(log.count - logCapacity) }
    }

    public func totals(for provider: ProviderID) -> ProviderUsageTotals { totals[provider] ?? ProviderUsageTotals() }
    public func allTotals() -> [ProviderID: ProviderUsageTotals] { totals }
    public func records() -> [UsageRecord] { log }
}

/// Prices per model, with a fallback for models not listed.
public struct PriceTable: Sendable, Hashable {
    public var prices: [String: TokenPricing]
    public var fallback: TokenPricing
    public init(_ prices: [String: TokenPricing] = [:], fallback: TokenPricing = .free) {
        self.prices = prices; self.fallback = fallback
    }
    public func pricing(for model: String) -> TokenPricing { prices[model] ?? fallback }
}

func dollars(_ value: Double) -> String { String(format: "%.6f", value) }
