import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// A provider whose server echoes its key: in a failure message, and in an answer.
actor KeyEchoingProvider: Provider {
    struct Redactor: SecretRedacting {
        let key: String
        func redact(_ text: String) -> String { text.replacingOccurrences(of: key, with: "(redacted)") }
    }
    static let key = "sk-live-0123456789abcdefSECRET"

    nonisolated let id: ProviderID
    nonisolated let capabilities = ProviderCapabilities(isOnDevice: false, maxContextTokens: 8192)
    nonisolated var secretRedactor: (any SecretRedacting)? { Redactor(key: Self.key) }
    let fails: Bool
    init(id: ProviderID, fails: Bool) { self.id = id; self.fails = fails }

    func availability() -> ProviderAvailability { .ready }
    func generate(_ request: ProviderRequest) -> ProviderEventStream {
        if fails { return .failing(.server(status: 500, message: "invalid key \(Self.key) for this project")) }
        return ProviderEventStream(events: [.token("your key is \(Self.key)"), .finished(.stop, nil)])
    }
}

/// The key a server echoes never reaches what the runtime records or reports about a call (errors,
/// events, metrics, the audit trail); the answer reaches the caller as the server wrote it.
@Suite("Secrets are redacted from what the runtime records")
struct SecretRedactionTests {
    @Test func aFailureEchoingTheKeyIsRedactedEverywhereTheRuntimeKeepsIt() async throws {
        let audit = AuditTrail()
        let metrics = MetricsActor()
        let coordinator = Coordinator(providers: [KeyEchoingProvider(id: "failing", fails: true),
                                                  KeyEchoingProvider(id: "echoing", fails: false)],
                                      configuration: Fixture.configuration(retry: RetryPolicy(maxAttemptsPerProvider: 1)),
                                      deviceState: FixedDeviceState(),
                                      metrics: metrics, audit: audit)
        let request = GenerationRequest(prompt: "What is my key?", preferredProviders: ["failing", "echoing"])
        var reported: [String] = []
        var answer = ""
        for await event in coordinator.stream(request) {
            switch event {
            case .fallback(_, _, let reason): reported.append("\(reason)")
            case .completed(let response): answer = response.text
            case .failed(let error): reported.append("\(error)")
            default: break
            }
        }
        #expect(reported.count == 1 && reported[0].contains("(redacted)"))
        #expect(answer.contains(KeyEchoingProvider.key), "the answer is the app's: passed on as written")

        let onlyFailing = Coordinator(providers: [KeyEchoingProvider(id: "failing", fails: true)],
                                      configuration: Fixture.configuration(retry: RetryPolicy(maxAttemptsPerProvider: 1)),
                                      deviceState: FixedDeviceState(),
                                      metrics: metrics, audit: audit)
        do { _ = try await onlyFailing.respond(to: GenerationRequest(prompt: "again")); Issue.record("expected a failure") } catch {
            #expect("\(error)".contains("(redacted)") && !"\(error)".contains(KeyEchoingProvider.key))
        }
        let records = String(decoding: await audit.jsonLines(), as: UTF8.self)
        await metrics.drainInbox()
        let kept = await metrics.exportJSON() + String(describing: await metrics.snapshot())
        #expect(!records.isEmpty && kept.contains("failing"))
        for text in reported + [records, kept] {
            #expect(!text.contains(KeyEchoingProvider.key))
            #expect(!text.contains("0123456789abcdef"))
        }
    }
}
