import Foundation
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Every sensitive and personal line of the privacy corpora, sent the way `switchboard-bench ask` sends a
/// prompt (on-device model plus an OpenAI-compatible server, the server preferred): a recording server
/// on loopback receives none of them, and does receive the public prompt sent last.
@Suite("Private corpus never reaches a remote server")
struct PrivateCorpusNeverSentTests {
    /// Every corpus of `Tests/Fixtures/privacy/` (the original one and the health, special-category and
    /// personal one).
    static let corpus: PrivacyCorpus = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/privacy")
        let files = ["corpus.txt", "identity-secrets.txt", "health-special-personal.txt"]
        return PrivacyCorpus(lines: files.flatMap { (try? PrivacyCorpus(contentsOf: folder.appendingPathComponent($0)))?.lines ?? [] })
    }()

    @Test func recordingServerReceivesNoPrivateLine() async throws {
        let server = try LoopbackHTTPServer([.sse(OpenAICompatibleProviderTests.happyStream)])
        defer { server.stop() }
        let remote = openAI(server)
        let local = ScriptedProvider(id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192),
                                     output: .tokens(["on device"]))
        let audit = AuditTrail()
        let coordinator = Coordinator(providers: [local, remote], configuration: SwitchboardConfiguration(cacheEnabled: false),
                                      clock: ImmediateClock(), deviceState: FixedDeviceState(), audit: audit)
        let privateLines = Self.corpus.lines.filter { $0.label >= .personal }
        #expect(privateLines.count >= 600)
        for line in privateLines {
            let response = try await coordinator.respond(to: GenerationRequest(prompt: line.text, maxTokens: 8,
                                                                              preferredProviders: [remote.id]))
            #expect(response.providerID == "local", "line \(line.lineNumber)")
        }
        #expect(server.snapshot.connections == 0)
        #expect(await audit.recent().allSatisfy { !$0.leftDevice })

        // The same path does reach the server for a public prompt, so the count above is not vacuous.
        let publicResponse = try await coordinator.respond(to: GenerationRequest(prompt: "Why is the sky blue?", maxTokens: 8,
                                                                                preferredProviders: [remote.id]))
        #expect(publicResponse.providerID == remote.id)
        #expect(server.requests.count == 1)
        let body = String(decoding: server.requests.first?.body ?? Data(), as: UTF8.self)
        #expect(body.contains("sky blue"))
    }
}
