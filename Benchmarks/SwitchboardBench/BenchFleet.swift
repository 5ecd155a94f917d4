import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// The providers of the main job: the two real on-device models (the base model for completions, the
/// instruct model for chat) plus four scripted remote providers, each behind a `RecordingProvider`,
/// so privacy is counted from what every provider actually received.
struct BenchFleet {
    static let healthy: ProviderID = "remote-healthy"
    static let flaky: ProviderID = "remote-flaky"
    static let slow: ProviderID = "remote-slow"
    static let down: ProviderID = "remote-down"

    let locals: [RecordingProvider]
    /// The base model's id (completion requests).
    let localID: ProviderID
    /// The instruct model's id (chat requests).
    let chatID: ProviderID
    let remotes: [RecordingProvider]

    var all: [RecordingProvider] { locals + remotes }
    var localIDs: Set<ProviderID> { Set(locals.map(\.id)) }

    init(completion: any Provider, chat: any Provider, seed: UInt64) {
        localID = completion.id
        chatID = chat.id
        locals = [RecordingProvider(wrapping: completion), RecordingProvider(wrapping: chat)]
        let answer: ScriptedProvider.Output = .custom { request in
            let words = ["Here", " is", " a", " short", " answer", " from", " the", " cloud", ".", " It", " covers",
                         " the", " main", " points", " briefly", "."]
            return Array(words.prefix(max(1, request.request.maxTokens)))
        }
        func remote(_ id: ProviderID, ttft: Duration, interval: Duration, price: Double, faults: FaultInjector = FaultInjector(),
                    persistent: Fault? = nil, expectedTTFT: Duration) -> RecordingProvider {
            let capabilities = ProviderCapabilities(
                isOnDevice: false, maxContextTokens: 128_000, supportsImages: true, supportsStructuredOutput: true,
                pricing: TokenPricing(inputPerMillion: price, outputPerMillion: price * 4),
                expectedTimeToFirstToken: expectedTTFT, expectedTokensPerSecond: 1 / max(interval.seconds, 0.001))
            return RecordingProvider(wrapping: ScriptedProvider(
                id: id, capabilities: capabilities, output: answer, timeToFirstToken: ttft, tokenInterval: interval,
                faults: faults, persistentFault: persistent, recordsRequests: false))
        }
        remotes = [
            remote(Self.healthy, ttft: .milliseconds(40), interval: .milliseconds(4), price: 0.15, expectedTTFT: .milliseconds(60)),
            remote(Self.flaky, ttft: .milliseconds(30), interval: .milliseconds(3), price: 0.10,
                   faults: FaultInjector(seed: seed, rate: 0.2, faults: [.error(.server(status: 503, message: "overloaded")),
                                                                          .error(.timeout), .failAfterTokens(2, .transport("connection reset"))]),
                   expectedTTFT: .milliseconds(40)),
            remote(Self.slow, ttft: .milliseconds(450), interval: .milliseconds(25), price: 0.05, expectedTTFT: .milliseconds(500)),
            remote(Self.down, ttft: .milliseconds(10), interval: .milliseconds(2), price: 0.01,
                   persistent: .error(.transport("connection refused")), expectedTTFT: .milliseconds(20)),
        ]
    }

    /// Requests each provider received whose analysis was `.sensitive`.
    func sensitiveReceived() async -> [ProviderID: Int] {
        var counts: [ProviderID: Int] = [:]
        for provider in all {
            counts[provider.id] = await provider.receivedRequests.filter { $0.analysis.privacy == .sensitive }.count
        }
        return counts
    }
}
