import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

/// The chaos bench's server: each fault reaches `OpenAICompatibleProvider` as the `ProviderError`
/// the router acts on, and the server counts requests and the sensitive ones among them.
@Suite("FaultyChatServer")
struct FaultyChatServerTests {
    /// Text before the error, and the error (nil when the stream finished).
    struct Run { var pieces: [String] = []; var error: ProviderError? }

    /// Deadlines generous enough for a busy machine; only the faults that never answer meet them
    /// (`headTimeout` for `.timeout`, `tokenTimeout` (also the idle timeout) for a stalled stream;
    /// generous otherwise, so a machine busy with the model suites still sees the reset first: one
    /// full run saw a reset surface only after 15 s, with both cores on the model suites).
    static func run(_ fault: ChatFault?, streaming: Bool = true, prompt: String = "Say hello",
                    markers: [String] = [], headTimeout: Duration = .seconds(60),
                    tokenTimeout: Duration = .seconds(60)) async throws -> (Run, FaultyChatServer.Counts) {
        // The reset waits long enough for the client to read the deltas first; stalls are cut by the
        // client's deadlines, not by the server.
        let server = try FaultyChatServer(plan: ChatFaultPlan(fault: fault, rate: 1),
                                          replies: ChatFaultReplies(holdSeconds: 90, resetPauseMilliseconds: 300),
                                          sensitiveMarkers: markers)
        defer { server.stop() }
        let settings = RemoteProviderSettings(streaming: streaming, requestTimeout: headTimeout,
                                              idleTimeout: tokenTimeout, tokenTimeout: tokenTimeout)
        let provider = RemoteProvider.openAI(model: "chaos", baseURL: server.baseURL, settings: settings)
        var run = Run()
        let stream = provider.generate(providerRequest(prompt))
        do {
            for try await event in stream {
                if case .token(let piece) = event { run.pieces.append(piece) }
            }
        } catch {
            run.error = ProviderError(error)
        }
        return (run, server.counts)
    }

    @Test func aHealthyServerStreamsTheWholeAnswer() async throws {
        let (streamed, counts) = try await Self.run(nil)
        #expect(streamed.error == nil)
        #expect(streamed.pieces.joined() == "This is a loopback answer.")
        #expect(counts.requests == 1 && counts.faults == 0)
        let (whole, _) = try await Self.run(nil, streaming: false)
        #expect(whole.error == nil)
        #expect(whole.pieces.joined() == "This is a loopback answer.")
    }

    @Test(arguments: [true, false])
    func statusFaultsMapToTheirErrors(streaming: Bool) async throws {
        #expect(try await Self.run(.rateLimitedRetryAfter, streaming: streaming).0.error == .rateLimited(retryAfter: .seconds(1)))
        #expect(try await Self.run(.rateLimited, streaming: streaming).0.error == .rateLimited(retryAfter: nil))
        let server500 = try await Self.run(.serverError, streaming: streaming).0.error
        guard case .server(500, _)? = server500 else { Issue.record("500: got \(String(describing: server500))"); return }
        let server503 = try await Self.run(.unavailable, streaming: streaming).0.error
        guard case .server(503, _)? = server503 else { Issue.record("503: got \(String(describing: server503))"); return }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let (run, counts) = try await Self.run(.timeout, headTimeout: .milliseconds(500))
        #expect(run.error == .timeout)
        #expect(run.pieces.isEmpty)
        #expect(counts.faults == 1)
    }

    @Test func resetsAreTransportFailuresBeforeOrAfterTheFirstToken() async throws {
        let (before, _) = try await Self.run(.resetBeforeFirstToken)
        guard case .transport? = before.error else { Issue.record("reset before: got \(String(describing: before.error))"); return }
        #expect(before.pieces.isEmpty)
        let (after, _) = try await Self.run(.resetAfterFirstToken)
        guard case .transport? = after.error else { Issue.record("reset after: got \(String(describing: after.error))"); return }
        #expect(after.pieces == ["This", " is"])
    }

    @Test func malformedAndTruncatedStreamsAreMalformedAfterTheirText() async throws {
        let (malformed, _) = try await Self.run(.malformedJSON)
        guard case .malformedResponse? = malformed.error else { Issue.record("malformed: got \(String(describing: malformed.error))"); return }
        #expect(malformed.pieces == ["This"])
        let (truncated, _) = try await Self.run(.truncatedStream)
        guard case .malformedResponse? = truncated.error else { Issue.record("truncated: got \(String(describing: truncated.error))"); return }
        #expect(truncated.pieces == ["This", " is", " a"])
    }

    @Test func aStalledStreamIsCutOffAfterItsFirstToken() async throws {
        let (run, _) = try await Self.run(.stalledStream, tokenTimeout: .seconds(2))
        #expect(run.pieces == ["This"])
        switch run.error {
        case .tokenTimeout?, .timeout?: break
        default: Issue.record("stalled: got \(String(describing: run.error))")
        }
    }

    @Test func theServerCountsRequestsCarryingSensitiveText() async throws {
        let markers = ["219-09-9999", "Tr0ub4dor&3"]
        #expect(try await Self.run(nil, prompt: "My SSN is 219-09-9999.", markers: markers).1.sensitive == 1)
        #expect(try await Self.run(nil, prompt: "my password is \"Tr0ub4dor&3\"", markers: markers).1.sensitive == 1)
        // Faulty replies count too: the body arrived whatever the answer.
        #expect(try await Self.run(.resetBeforeFirstToken, prompt: "SSN 219-09-9999", markers: markers).1.sensitive == 1)
        let (_, publicCounts) = try await Self.run(nil, prompt: "What is 2+2?", markers: markers)
        #expect(publicCounts.requests == 1 && publicCounts.sensitive == 0)
    }

    @Test func aPlanPicksTheSameRequestsForTheSameSeed() {
        let plan = ChatFaultPlan(fault: .serverError, rate: 0.1, seed: 42)
        let picked = (0..<1000).filter { plan.fault(forRequest: $0) != nil }
        #expect(picked == (0..<1000).filter { ChatFaultPlan(fault: .serverError, rate: 0.1, seed: 42).fault(forRequest: $0) != nil })
        #expect((50...150).contains(picked.count))
        #expect((0..<100).allSatisfy { ChatFaultPlan(fault: .timeout, rate: 1).fault(forRequest: $0) == .timeout })
        #expect((0..<100).allSatisfy { ChatFaultPlan(fault: .timeout, rate: 0).fault(forRequest: $0) == nil })
        #expect(ChatFaultPlan(fault: .timeout, rate: .nan).rate == 0)
    }

    @Test func aStoppedServerTakesNoRequests() async throws {
        let server = try FaultyChatServer(plan: .healthy)
        server.stop()
        server.stop()  // idempotent
        // The freed port may already belong to another test's server, so only this server's count is asserted.
        let provider = RemoteProvider.openAI(model: "chaos", baseURL: server.baseURL,
                                             settings: RemoteProviderSettings(requestTimeout: .seconds(5)))
        _ = await failure(of: provider.generate(providerRequest()))
        #expect(server.counts.requests == 0)
    }

    @Test func aRefusedConnectionIsATransportError() async throws {
        let closed = try ClosedLoopbackPort()
        let provider = RemoteProvider.openAI(model: "chaos", baseURL: closed.baseURL,
                                             settings: RemoteProviderSettings(requestTimeout: .seconds(5)))
        let error = await failure(of: provider.generate(providerRequest()))
        guard case .transport? = error else { Issue.record("refused: got \(String(describing: error))"); return }
        withExtendedLifetime(closed) {}
    }
}
