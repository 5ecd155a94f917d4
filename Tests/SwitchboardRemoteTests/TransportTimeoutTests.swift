import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
import SwitchboardCore
@testable import SwitchboardRemote

/// The bridge's own timeouts: they win over the error the cancelled task reports afterwards, and the
/// real-time timer fires while every Swift cooperative thread is blocked.
@Suite struct TransportTimeoutTests {
    /// Timeouts that fire only when the test says so.
    final class ManualTimers: Sendable {
        private let armed = Lock<[@Sendable () -> Void]>([])
        var scheduler: TimeoutScheduler {
            TimeoutScheduler { [self] _, action in
                armed.withLock { $0.append(action) }
                return TimeoutHandle {}
            }
        }
        var count: Int { armed.withLock { $0.count } }
        func fire(_ index: Int) { armed.withLock { $0[index] }() }
    }

    @Test func requestTimeoutWinsOverTheErrorOfTheCancelledTask() async throws {
        let (session, task) = try DataTaskBridgeTests.fixtures()
        let timers = ManualTimers()
        let bridge = DataTaskBridge(timers: timers.scheduler, maxBuffered: 1 << 20, idleTimeout: .seconds(30))
        bridge.armDeadline(.milliseconds(300), coversBody: false)
        timers.fire(0)
        // The cancelled connection then reports whatever it died of (here: an empty reply).
        bridge.urlSession(session, task: task, didCompleteWithError: URLError(.badServerResponse))
        await #expect(throws: ProviderError.timeout) { _ = try await bridge.awaitHead() }
        #expect(bridge.abortReason == .timeout)
    }

    @Test func idleTimeoutWinsOverTheErrorOfTheCancelledTask() async throws {
        let (session, task) = try DataTaskBridgeTests.fixtures()
        let timers = ManualTimers()
        let bridge = DataTaskBridge(timers: timers.scheduler, maxBuffered: 1 << 20, idleTimeout: .milliseconds(300))
        try DataTaskBridgeTests.head(bridge, session, task)
        try #require(timers.count == 1)  // armed by the head
        let consumer = Task { try await bridge.nextChunk() }
        timers.fire(0)
        bridge.urlSession(session, task: task, didCompleteWithError: URLError(.unknown))
        await #expect(throws: ProviderError.timeout) { _ = try await consumer.value }
        // A later read still reports the timeout, not the task's error.
        await #expect(throws: ProviderError.timeout) { _ = try await bridge.nextChunk() }
    }

    /// The idle timer watches the network, not the consumer: with no reader at all (its task not yet
    /// scheduled) a silent server still times out, and bytes arriving push the timeout back.
    @Test func idleTimerWatchesTheNetworkNotTheConsumer() async throws {
        let (session, task) = try DataTaskBridgeTests.fixtures()
        let timers = ManualTimers()
        let bridge = DataTaskBridge(timers: timers.scheduler, maxBuffered: 1 << 20, idleTimeout: .milliseconds(300))
        try DataTaskBridgeTests.head(bridge, session, task)
        bridge.urlSession(session, dataTask: task, didReceive: Data("one".utf8))
        timers.fire(0)  // bytes came since it was armed: re-armed, no timeout
        #expect(bridge.abortReason == nil)
        try #require(timers.count == 2)
        timers.fire(1)  // a full period of silence
        bridge.urlSession(session, task: task, didCompleteWithError: URLError(.cancelled))
        // The chunk that came before the silence is still delivered, then the timeout.
        #expect(try await bridge.nextChunk() == Data("one".utf8))
        await #expect(throws: ProviderError.timeout) { _ = try await bridge.nextChunk() }
    }

    @Test func realTimeTimeoutFiresWhileTheCooperativePoolIsBlocked() async throws {
        let bridge = DataTaskBridge(timers: .realTime, maxBuffered: 1 << 20, idleTimeout: .seconds(30))
        let limit = ContinuousClock.now + .seconds(10)  // bounds the blocking loops; reached only when broken
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        bridge.armDeadline(.milliseconds(20), coversBody: false)
        // Block every cooperative thread until the timeout has been recorded.
        let blockers = (0..<width).map { _ in
            Task.detached { () -> Bool in
                while bridge.abortReason == nil, ContinuousClock.now < limit { usleep(500) }
                return bridge.abortReason != nil
            }
        }
        for blocker in blockers { #expect(await blocker.value, "the timeout waited for a cooperative thread") }
        #expect(bridge.abortReason == .timeout)
    }
}
