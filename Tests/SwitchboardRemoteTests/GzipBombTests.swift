import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

/// A small gzip body that inflates to hundreds of megabytes, as one endless line: the client stops at
/// the decoded-byte cap with a typed error and never holds more than the cap.
@Suite("A gzip bomb is refused at the decoded-byte cap")
struct GzipBombTests {
    /// 82 MB once inflated, 520 kB on the wire: below the 1 MiB cap unless inflated.
    static let periods = 40_000

    static func bomb() -> LoopbackReply {
        LoopbackReply(status: 200, headers: ["Content-Type": "text/event-stream", "Content-Encoding": "gzip"],
                      steps: [.send(GzipBomb.make(periods: periods))], chunked: false)
    }

    @Test func theTransportHandsOverNoMoreThanTheCap() async throws {
        #expect(GzipBomb.inflatedSize(periods: Self.periods) > 80_000_000)
        #expect(GzipBomb.make(periods: Self.periods).count < 1 << 20, "only the inflated body can reach the cap")
        let server = try LoopbackHTTPServer([Self.bomb()])
        defer { server.stop() }
        let limit = 1 << 20
        let response = try await URLSessionTransport().stream(HTTPRequest(url: server.baseURL, maxResponseBytes: limit))
        var delivered = 0
        var caught: ProviderError?
        do {
            for try await chunk in response.body { delivered += chunk.count }
        } catch { caught = error as? ProviderError }
        #expect(caught == .responseTooLarge(what: "the response body", limit: limit))
        // Buffered chunks are dropped with the abort: what the consumer saw is at most the cap.
        #expect(delivered <= limit, "decoded bytes handed over: \(delivered)")
    }

    @Test func theProviderFailsWithATypedErrorAndFallbackClass() async throws {
        let server = try LoopbackHTTPServer([Self.bomb()])
        defer { server.stop() }
        let started = ContinuousClock.now
        let error = await failure(of: openAI(server, settings: HostileStreamTests.hostile()).generate(providerRequest()))
        guard case .responseTooLarge? = error else { Issue.record("expected responseTooLarge, got \(String(describing: error))"); return }
        #expect(error?.classification == .fallbackOnly)
        // Only a backstop against a hang: a run with both cores on the model suites took 24 s.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aWholeReplyIsCappedToo() async throws {
        let bomb = LoopbackReply(status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                                 steps: [.send(GzipBomb.make(periods: Self.periods))], chunked: false)
        let server = try LoopbackHTTPServer([bomb])
        defer { server.stop() }
        var settings = HostileStreamTests.hostile()
        settings.streaming = false
        let error = await failure(of: openAI(server, settings: settings).generate(providerRequest()))
        #expect(error == .responseTooLarge(what: "the response body", limit: 1 << 20))
    }
}
