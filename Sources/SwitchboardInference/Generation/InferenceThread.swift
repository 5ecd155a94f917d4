import Foundation
import Synchronization

/// One long-lived OS thread that owns a piece of non-`Sendable` state (an `InferenceSession`) and runs
/// jobs against it one at a time, in submission order.
///
/// Why not run the forward pass inside an actor: a generation is seconds of synchronous work, and on
/// a 2-core machine the Swift cooperative pool has only two threads, so occupying one starves every
/// other actor and delays the consumer that would cancel the generation. This thread is outside that
/// pool; callers only enqueue and never block.
///
/// The state is created on the thread by `makeState` and never leaves it, so it needs no `Sendable`
/// conformance. When the last reference goes (or on `close()`), queued jobs still run, then the
/// thread ends and releases the state.
public final class InferenceThread<State>: Sendable {
    private let jobs = JobQueue<State>()

    /// - Parameters:
    ///   - name: the thread's name (shows in debuggers and `top -H`).
    ///   - makeState: builds the state, on the new thread, before the first job.
    public init(name: String, makeState: @escaping @Sendable () -> State) {
        let thread = Thread { [jobs] in
            // Set from inside: on Linux a new thread otherwise keeps its creator's (a pool thread's) name.
            Thread.current.name = name
            let state = makeState()
            while let job = jobs.next() { job(state) }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit { close() }

    /// Enqueues `job`; returns false (and drops it) once `close()` was called.
    @discardableResult
    public func submit(_ job: @escaping @Sendable (State) -> Void) -> Bool {
        jobs.append(job)
    }

    /// Runs `body` on the thread after every job submitted before it and returns its result (nil once
    /// closed). Suspends the caller without blocking a cooperative thread.
    public func perform<Result: Sendable>(_ body: @escaping @Sendable (State) -> Result) async -> Result? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result?, Never>) in
            if !submit({ continuation.resume(returning: body($0)) }) { continuation.resume(returning: nil) }
        }
    }

    /// Stops accepting jobs; the thread finishes the queued ones and exits. Idempotent.
    public func close() { jobs.close() }
}

/// The FIFO between submitters and the thread. The semaphore counts queued jobs plus one wake-up
/// for `close()`, so the thread sleeps (no spinning) while idle.
private final class JobQueue<State>: Sendable {
    private struct Contents {
        var jobs: [@Sendable (State) -> Void] = []  // a handful at most: removeFirst is cheap
        var isClosed = false
    }

    private let contents = Mutex(Contents())
    private let pending = DispatchSemaphore(value: 0)

    func append(_ job: @escaping @Sendable (State) -> Void) -> Bool {
        let accepted = contents.withLock { contents in
            guard !contents.isClosed else { return false }
            contents.jobs.append(job)
            return true
        }
        if accepted { pending.signal() }
        return accepted
    }

    func close() {
        let wasOpen = contents.withLock { contents in
            defer { contents.isClosed = true }
            return !contents.isClosed
        }
        if wasOpen { pending.signal() }
    }

    /// Blocks until a job is queued; nil once closed and drained (only `close()` signals without a job).
    func next() -> (@Sendable (State) -> Void)? {
        pending.wait()
        return contents.withLock { contents in contents.jobs.isEmpty ? nil : contents.jobs.removeFirst() }
    }
}
