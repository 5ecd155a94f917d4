import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// The URLSession bridge driven directly through its delegate methods: no network, no real waiting.
@Suite("URLSession delegate bridge")
struct DataTaskBridgeTests {
    /// A session and a task that is never resumed, only handed to the delegate methods.
    static func fixtures() throws -> (URLSession, URLSessionDataTask) {
        let session = URLSession(configuration: .ephemeral)
        let url = try #require(URL(string: "http://127.0.0.1:9/"))
        return (session, session.dataTask(with: url))
    }

    static func head(_ bridge: DataTaskBridge, _ session: URLSession, _ task: URLSessionDataTask) throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["X-A": "b"]))
        bridge.urlSession(session, dataTask: task, didReceive: response) { _ in }
    }

    @Test func chunksArriveInOrderThenTheEnd() async throws {
        let (session, task) = try Self.fixtures()
        let bridge = DataTaskBridge(clock: ClockSource(ContinuousClock()), maxBuffered: 1 << 20, idleTimeout: .seconds(30))
        try Self.head(bridge, session, task)
        let head = try await bridge.awaitHead()
        #expect(head.status == 200 && head.headers["x-a"] == "b")
        bridge.urlSession(session, dataTask: task, didReceive: Data("one".utf8))
        bridge.urlSession(session, dataTask: task, didReceive: Data("two".utf8))
        bridge.urlSession(session, task: task, didCompleteWithError: nil)
        #expect(try await bridge.nextChunk() == Data("one".utf8))
        #expect(try await bridge.nextChunk() == Data("two".utf8))
        #expect(try await bridge.nextChunk() == nil)
    }

    @Test func networkErrorComesAfterTheBufferedChunks() async throws {
        let (session, task) = try Self.fixtures()
        let bridge = DataTaskBridge(clock: ClockSource(ContinuousClock()), maxBuffered: 1 << 20, idleTimeout: .seconds(30))
        try Self.head(bridge, session, task)
        bridge.urlSession(session, dataTask: task, didReceive: Data("partial".utf8))
        bridge.urlSession(session, task: task, didCompleteWithError: URLError(.networkConnectionLost))
        #expect(try await bridge.nextChunk() == Data("partial".utf8))
        await #expect(throws: ProviderError.transport("the network connection was lost")) { _ = try await bridge.nextChunk() }
    }

    @Test func aConsumerTooFarBehindFailsTheStream() async throws {
        let (session, task) = try Self.fixtures()
        let bridge = DataTaskBridge(clock: ClockSource(ContinuousClock()), maxBuffered: 150, idleTimeout: .seconds(30))
        try Self.head(bridge, session, task)
        for _ in 0..<3 { bridge.urlSession(session, dataTask: task, didReceive: Data(count: 100)) }
        do {
            _ = try await bridge.nextChunk()
            Issue.record("an overflowing buffer was read")
        } catch let error as ProviderError {
            guard case .transport(let message) = error else { Issue.record("got \(error)"); return }
            #expect(message.contains("150 bytes"))
        }
    }

    @Test func idleTimeoutFiresOnTheInjectedClock() async throws {
        let (session, task) = try Self.fixtures()
        let bridge = DataTaskBridge(clock: ClockSource(ImmediateClock()), maxBuffered: 1 << 20, idleTimeout: .seconds(30))
        try Self.head(bridge, session, task)
        await #expect(throws: ProviderError.timeout) { _ = try await bridge.nextChunk() }
    }

    @Test func cancellingTheWaitingConsumerThrowsCancelled() async throws {
        let (session, task) = try Self.fixtures()
        let bridge = DataTaskBridge(clock: ClockSource(ContinuousClock()), maxBuffered: 1 << 20, idleTimeout: .seconds(30))
        try Self.head(bridge, session, task)
        let consumer = Task { try await bridge.nextChunk() }
        consumer.cancel()
        await #expect(throws: ProviderError.cancelled) { _ = try await consumer.value }
    }

    @Test func urlErrorsBecomeProviderErrorsWithoutURLs() {
        #expect(DataTaskBridge.providerError(for: URLError(.timedOut)) == .timeout)
        #expect(DataTaskBridge.providerError(for: URLError(.cancelled)) == .cancelled)
        #expect(DataTaskBridge.providerError(for: URLError(.cannotConnectToHost)) == .transport("cannot connect to the host (connection refused)"))
        guard case .transport(let message) = DataTaskBridge.providerError(for: URLError(.badServerResponse)) else {
            Issue.record("expected transport"); return
        }
        #expect(message.contains("-1011"))
    }
}
