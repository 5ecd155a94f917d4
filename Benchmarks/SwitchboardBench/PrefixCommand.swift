import Foundation
import Switchboard
import SwitchboardLocal

/// `switchboard-bench prefix --model PATH [--json]`: 20 requests from 20 different sessions (different
/// user messages) that share one ~600-token system prompt, each on two engines of the same file: one
/// with the prefix cache (the engine's default) and one without it (`prefixCacheBytes: 0`). The two
/// run in turn, request by request, so load on the machine falls on both alike. Prints time to first
/// token per request and the p50 of requests 2…20 (the first fills the cache); `--json`:
/// `ttft_p50_ms_with_cache`, `ttft_p50_ms_without_cache`, `speedup`, the counts used, and whether
/// every answer was the same with and without the cache.
enum PrefixCommand: BenchCommand {
    static let name = "prefix"
    static let summary = "20 sessions sharing a 600-token system prompt: ttft p50 with and without the prefix cache"
    static let options: [BenchOption]? = [.flag("json"), .integer("max-tokens", 1...512), .integer("requests", 2...200),
                                          .integer("batch", 1...64)] + BenchOption.localModel

    static func run(_ arguments: Arguments) async -> Int32 {
        let maxTokens = arguments.int("max-tokens") ?? 8, count = arguments.int("requests") ?? 20
        let path = arguments.string("model").flatMap { $0.isEmpty ? nil : $0 } ?? BenchLocalModel.chatPath(arguments)
        let configuration: ModelConfiguration
        do { configuration = try ModelConfiguration(file: URL(fileURLWithPath: path)) } catch {
            printError("prefix: \(error)"); return 1
        }
        let batch = arguments.int("batch") ?? 1
        var engines: [(coordinator: Coordinator, provider: LocalModelProvider)] = []
        for cacheBytes in [nil, 0] as [Int?] {
            let loader = LocalEngineLoader(threads: BenchLocalModel.threads(arguments), batchSize: batch, prefixCacheBytes: cacheBytes)
            let provider = LocalModelProvider(configuration: configuration, modelPath: path, loader: loader, idleTimeout: nil)
            guard await BenchLocalModel.load(provider, quiet: arguments.flag("json")) else { return 1 }
            engines.append((Coordinator(providers: [provider], deviceState: FixedDeviceState()), provider))
        }
        var ttft: [[Double]] = [[], []], reused: [[Int]] = [[], []], promptTokens: [Int] = [], identical = true
        for i in 0..<count {
            let message = userMessages[i % userMessages.count] + (i < userMessages.count ? "" : " (request \(i + 1))")
            var answers: [String] = []
            for (e, engine) in engines.enumerated() {
                // A new session per request: what it shares with the others is the system prompt alone.
                let session = Session(coordinator: engine.coordinator, instructions: systemPrompt,
                                      options: Session.Options(maxTokens: maxTokens, contextTokens: 4096))
                do {
                    let response = try await session.respond(to: message)
                    ttft[e].append((response.timings.timeToFirstToken ?? .zero).seconds * 1000)
                    reused[e].append(response.usage.cachedPromptTokens)
                    if e == 0 { promptTokens.append(response.usage.promptTokens) }
                    answers.append(response.content)
                } catch {
                    printError("prefix: request \(i + 1): \(error)"); return 1
                }
            }
            identical = identical && answers[0] == answers[1]
            if !arguments.flag("json") {
                print(String(format: "request %2d: first token %7.1f ms with the cache (%d of %d prompt tokens cached), %7.1f ms without",
                             i + 1, ttft[0][i], reused[0][i], promptTokens[i], ttft[1][i]))
            }
        }
        for engine in engines { await engine.provider.unload() }
        let later = 1..<count
        let with = median(Array(ttft[0][later])), without = median(Array(ttft[1][later]))
        let speedup = without / max(with, 1e-6)
        if arguments.flag("json") {
            EngineSupport.printJSON([
                "ttft_p50_ms_with_cache": EngineSupport.round1(with), "ttft_p50_ms_without_cache": EngineSupport.round1(without),
                "speedup": EngineSupport.round1(speedup), "requests": count, "measured_requests": later.count,
                "measured": "requests 2-\(count)", "sessions": count, "batch_size": batch, "max_tokens": maxTokens,
                "prompt_tokens_p50": median(promptTokens.map(Double.init)),
                "cached_prompt_tokens_p50_with_cache": median(Array(reused[0][later]).map(Double.init)),
                "cached_prompt_tokens_p50_without_cache": median(Array(reused[1][later]).map(Double.init)),
                "first_request_ttft_ms_with_cache": EngineSupport.round1(ttft[0][0]), "identical": identical,
            ])
        } else {
            print(String(format: "p50 of requests 2-%d: %.1f ms with the cache, %.1f ms without (%.1fx); answers identical: %@",
                         count, with, without, speedup, identical ? "yes" : "no"))
        }
        return 0
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// An app's system prompt: who the assistant is, its rules and its reference facts (about 600
    /// tokens with SmolLM2's tokenizer and chat template).
    static let systemPrompt = """
        You are Harbor, the in-app assistant of Northwind Utilities, a regional provider of electricity, water and \
        broadband for homes and small businesses. You help customers understand their bills, manage their accounts, \
        report problems and find the right form or phone number. You run on the customer's own device, so you can see \
        only what the customer types in this conversation.

        How to answer:
        - Be brief and friendly. Use plain language and short sentences. Answer in two to four sentences unless the \
        customer asks for detail or for step-by-step instructions.
        - Never invent account numbers, balances, dates, meter readings or outage times. If the customer asks about \
        their own account, explain where in the app they can find it (Account > Billing, Account > Usage, or \
        Account > Payments) and what the numbers mean.
        - Never ask for a full card number, a password, a security code or a one-time passcode. If a customer offers \
        one, tell them not to share it and to use the secure payment screen instead.
        - If the customer reports a gas smell, sparking equipment, a downed power line or flooding near electrical \
        equipment, tell them to leave the area and call the emergency line at 1-800-555-0199 right away. Safety comes \
        before any other answer.
        - If you do not know, say so and point to the help center or the phone line. Do not guess policy.

        Reference facts:
        - Bills are issued monthly, on the same day as the customer's first service date. Payment is due 21 days after \
        the bill is issued. A late fee of 1.5 percent of the overdue amount applies after the due date, at most once \
        per month.
        - Customers can pay by bank transfer, debit or credit card in the app, automatic payment, or in person at any \
        partner store. Automatic payments are taken three days before the due date.
        - Customers who are behind on payments can ask for a payment arrangement of up to twelve months. Service is \
        never disconnected while an arrangement is kept, and never on weekends, public holidays or during extreme \
        weather warnings.
        - Moving home: customers should give at least five working days of notice in Account > Moving. Final meter \
        readings can be submitted in the app or taken by a technician.
        - Outages: the live outage map is under Help > Outages. Most planned maintenance is announced at least 48 \
        hours in advance by text message.
        - Broadband support is available around the clock at 1-800-555-0142. Billing support is open Monday to \
        Friday, 8 am to 8 pm, at 1-800-555-0100.
        - Customers over 65, or with a medical device at home, can join the priority services register, which gives \
        them advance warning of planned outages and a direct support line.
        """

    /// What twenty different customers ask.
    static let userMessages = [
        "Why is my bill higher this month than last month?",
        "How do I set up automatic payments?",
        "I smell gas in my kitchen, what should I do?",
        "When is my payment due if my bill came on the 3rd?",
        "Can I spread my costs evenly over the year?",
        "I'm moving next month. What do I need to do?",
        "Is there an outage in my area right now?",
        "My internet keeps dropping every evening. Who can help?",
        "I can't pay this month. Will you cut off my power?",
        "What is the late fee if I pay a week late?",
        "Can I pay in cash somewhere?",
        "My mother is 82 and uses an oxygen machine. Is there any special support?",
        "How do I submit a meter reading?",
        "What are the opening hours of billing support?",
        "I want to make a complaint about my last engineer visit.",
        "Will you warn me before planned maintenance?",
        "Can I change the day my bill is issued?",
        "Can I get a paper copy of my bill?",
        "Someone asked me for my card security code on the phone. Was that you?",
        "How long do you take to answer a complaint?",
    ]
}
