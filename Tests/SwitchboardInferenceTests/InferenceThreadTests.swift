import Foundation
import Synchronization
import Testing
@testable import SwitchboardInference

/// The job runner alone (no model): FIFO order, one owning thread, draining on close.
@Suite struct InferenceThreadTests {
    final class Log: Sendable {
        let entries = Mutex<[Int]>([])
        let threads = Mutex<Set<UInt>>([])
    }

    @Test func runsJobsInOrderOnItsOwnThread() async throws {
        let log = Log()
        let runner = InferenceThread(name: "test.runner") { Tally() }
        for index in 0..<20 {
            runner.submit { state in
                state.values.append(index)
                log.entries.withLock { $0.append(index) }
                log.threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            }
        }
        // `perform` queues behind every job above.
        let count = try #require(await runner.perform { $0.values.count })
        #expect(count == 20)
        #expect(log.entries.withLock { $0 } == Array(0..<20))
        #expect(log.threads.withLock { $0.count } == 1)  // one thread ran them all
    }

    @Test func closeDrainsQueuedJobsAndRejectsNewOnes() async throws {
        let log = Log()
        let runner = InferenceThread(name: "test.closing") { () }
        let gate = DispatchSemaphore(value: 0)
        runner.submit { _ in gate.wait() }  // holds the thread so the next jobs stay queued
        for index in 0..<3 { runner.submit { _ in log.entries.withLock { $0.append(index) } } }
        runner.close()
        #expect(!runner.submit { _ in log.entries.withLock { $0.append(99) } })
        #expect(await runner.perform { _ in 1 } == nil)
        gate.signal()
        // The thread drains what was queued before `close()`; poll briefly for it.
        for _ in 0..<2_000 where log.entries.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(log.entries.withLock { $0 } == [0, 1, 2])
    }
}

/// Non-Sendable state that only the runner's thread touches.
private final class Tally { var values: [Int] = [] }
