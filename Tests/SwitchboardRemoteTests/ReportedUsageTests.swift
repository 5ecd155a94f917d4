import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Usage counts are a server's claims: near `Int.max`, negative or absurd, they are clamped to
/// `0...2^30` before the ledger adds them, so nothing traps and no reply lowers what was spent.
@Suite("Reported usage is clamped")
struct ReportedUsageTests {
    static func reply(prompt: String, completion: String) -> LoopbackReply {
        .json(200, #"{"choices":[{"index":0,"message":{"role":"assistant","content":"Hello."},"finish_reason":"stop"}],"#
            + #""usage":{"prompt_tokens":\#(prompt),"completion_tokens":\#(completion)}}"#)
    }

    @Test func countsNearIntMaxDoNotTrapTheLedgerOnTheSecondCommit() async throws {
        let server = try LoopbackHTTPServer([Self.reply(prompt: "9223372036854775807", completion: "9223372036854775807"),
                                             Self.reply(prompt: "9223372036854775806", completion: "1e300")])
        defer { server.stop() }
        let ledger = UsageLedger()
        let provider = openAI(server, settings: settings(streaming: false, ledger: ledger))
        let first = try await collect(provider.generate(providerRequest()))
        let second = try await collect(provider.generate(providerRequest()))
        #expect(first.usage == TokenUsage(promptTokens: ReportedUsage.maxTokens, completionTokens: ReportedUsage.maxTokens))
        #expect(second.usage == TokenUsage(promptTokens: ReportedUsage.maxTokens, completionTokens: ReportedUsage.maxTokens))
        let totals = await ledger.totals(for: "openai-compatible")
        #expect(totals.inputTokens == 2 * ReportedUsage.maxTokens && totals.outputTokens == 2 * ReportedUsage.maxTokens)
    }

    @Test func negativeUsageCannotUnspendABudget() async throws {
        let server = try LoopbackHTTPServer([Self.reply(prompt: "1000", completion: "1000"),
                                             Self.reply(prompt: "-9223372036854775807", completion: "-5000000")])
        defer { server.stop() }
        let ledger = UsageLedger()
        let pricing = TokenPricing(inputPerMillion: 1, outputPerMillion: 1)
        let provider = openAI(server, settings: settings(streaming: false, pricing: pricing, budget: 10, ledger: ledger))
        _ = try await collect(provider.generate(providerRequest()))
        let spent = await ledger.totals(for: "openai-compatible").costUSD
        let negative = try await collect(provider.generate(providerRequest()))
        #expect(negative.usage == TokenUsage(promptTokens: 0, completionTokens: 0))
        let totals = await ledger.totals(for: "openai-compatible")
        #expect(totals.costUSD == spent && spent > 0, "\(totals.costUSD) after \(spent)")
        #expect(totals.inputTokens == 1000 && totals.outputTokens == 1000)
    }

    @Test func aLedgerFedDirectlySaturatesAndClamps() async {
        let ledger = UsageLedger()
        for usage in [TokenUsage(promptTokens: .max, completionTokens: .max), TokenUsage(promptTokens: .min, completionTokens: -1),
                      TokenUsage(promptTokens: .max, completionTokens: .max)] {
            await ledger.commit(nil, record: UsageRecord(provider: "p", model: "m", usage: usage, costUSD: -1e300, error: nil))
        }
        let totals = await ledger.totals(for: "p")
        #expect(totals.inputTokens == 2 * ReportedUsage.maxTokens && totals.costUSD == 0 && totals.requests == 3)
        #expect(await ledger.records().allSatisfy { ($0.usage?.promptTokens ?? 0) >= 0 && $0.costUSD >= 0 })
    }

    @Test func geminiThoughtsAndCandidatesNearIntMaxDoNotOverflowTheirSum() async throws {
        let body = #"{"candidates":[{"content":{"parts":[{"text":"Hi."}],"role":"model"},"finishReason":"STOP"}],"#
            + #""usageMetadata":{"promptTokenCount":-3,"candidatesTokenCount":9223372036854775807,"thoughtsTokenCount":9223372036854775807}}"#
        let server = try LoopbackHTTPServer([.json(200, body)])
        defer { server.stop() }
        let result = try await collect(gemini(server, settings: settings(streaming: false)).generate(providerRequest()))
        #expect(result.usage == TokenUsage(promptTokens: 0, completionTokens: ReportedUsage.maxTokens))
    }

    @Test func anthropicStreamedUsageIsClampedToo() async throws {
        let events = [
            sseEvent("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":-7,"output_tokens":1}}}"#),
            sseEvent("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi."}}"#),
            sseEvent("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1e400}}"#),
            sseEvent("message_stop", #"{"type":"message_stop"}"#),
        ]
        let server = try LoopbackHTTPServer([.sse(events)])
        defer { server.stop() }
        let result = try await collect(anthropic(server).generate(providerRequest()))
        #expect(result.usage == TokenUsage(promptTokens: 0, completionTokens: ReportedUsage.maxTokens))
    }
}
