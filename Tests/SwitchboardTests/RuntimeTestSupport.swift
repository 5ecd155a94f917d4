import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// Builders shared by the runtime tests.
enum Fixture {
    static func localCapabilities(context: Int = 8192) -> ProviderCapabilities {
        ProviderCapabilities(isOnDevice: true, maxContextTokens: context, expectedTimeToFirstToken: .milliseconds(100),
                             expectedTokensPerSecond: 60)
    }

    static func remoteCapabilities(context: Int = 128_000) -> ProviderCapabilities {
        ProviderCapabilities(isOnDevice: false, maxContextTokens: context, supportsImages: true,
                             supportsStructuredOutput: true, pricing: TokenPricing(inputPerMillion: 1, outputPerMillion: 4),
                             expectedTimeToFirstToken: .milliseconds(400), expectedTokensPerSecond: 80)
    }

    static func local(_ id: ProviderID = "local", context: Int = 8192, tokens: [String] = ["local", " answer"],
                      fault: Fault? = nil, clock: some Clock<Duration> = ContinuousClock()) -> ScriptedProvider {
        ScriptedProvider(id: id, capabilities: localCapabilities(context: context), output: .tokens(tokens),
                         persistentFault: fault, clock: clock)
    }

    static func remote(_ id: ProviderID = "remote", context: Int = 128_000, tokens: [String] = ["remote", " answer"],
                       fault: Fault? = nil, clock: some Clock<Duration> = ContinuousClock()) -> ScriptedProvider {
        ScriptedProvider(id: id, capabilities: remoteCapabilities(context: context), output: .tokens(tokens),
                         persistentFault: fault, clock: clock)
    }

    /// Retries without waiting on the real clock; breaker and budget out of the way unless a test wants them.
    static func configuration(retry: RetryPolicy = RetryPolicy(), cache: Bool = false,
                              breaker: CircuitBreaker.Configuration = .init(consecutiveFailures: 1_000, minimumCalls: 1_000),
                              privacy: PrivacyPolicy = PrivacyPolicy(), concurrency: Int = 4,
                              queue: QueuePolicy = QueuePolicy()) -> SwitchboardConfiguration {
        SwitchboardConfiguration(privacy: privacy, retry: retry, breaker: breaker, queue: queue,
                                 defaultConcurrency: concurrency, cacheEnabled: cache, stateRefreshInterval: .zero)
    }
}

extension Fixture {
    /// Collects a stream's events.
    static func collect(_ stream: some AsyncSequence<SwitchboardEvent, Never>) async -> [SwitchboardEvent] {
        var events: [SwitchboardEvent] = []
        for await event in stream { events.append(event) }
        return events
    }

    /// Yields until `condition` holds (true) or `maxYields` yields have passed (false).
    @discardableResult
    static func eventually(maxYields: Int = 100_000, _ condition: () async -> Bool) async -> Bool {
        for _ in 0..<maxYields {
            if await condition() { return true }
            await Task.yield()
        }
        return await condition()
    }

    /// Runs `body` and returns its typed error, or nil on success.
    static func failure<Answer>(_ body: () async throws -> Answer) async -> SwitchboardError? {
        do { _ = try await body(); return nil } catch {
            return error as? SwitchboardError ?? .invalidRequest("not a SwitchboardError: \(error)")
        }
    }
}

extension SwitchboardEvent {
    /// A compact label for order assertions.
    var eventLabel: String {
        switch self {
        case .analyzed: "analyzed"
        case .providerChosen(let id, let attempt): "chosen:\(id)#\(attempt)"
        case .token(let text): "token:\(text)"
        case .fallback(let from, let to, _): "fallback:\(from)->\(to)"
        case .resumed(let from, let to, _, _): "resumed:\(from)->\(to)"
        case .hedged(let primary, let hedge): "hedged:\(primary)+\(hedge)"
        case .toolCall(let call): "toolCall:\(call.name)"
        case .toolResult(let result): "toolResult:\(result.name)"
        case .completed(let response): "completed:\(response.providerID)"
        case .failed: "failed"
        }
    }
}
