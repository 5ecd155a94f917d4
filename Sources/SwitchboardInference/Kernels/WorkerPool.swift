import Foundation
import Synchronization

/// A persistent pool of kernel threads running one parallel region at a time. A region is split
/// into chunks that workers claim from a shared counter; the calling thread claims chunks too, so
/// a helper thread that is descheduled (the machine is shared) delays nothing: its chunks are simply
/// taken by whoever is running. Between regions helpers spin briefly, then park on a condition
/// variable. No allocation, task or actor hop per region.
///
/// Dispatch's `concurrentPerform` would need a `@Sendable` body, which the kernels' raw pointers
/// cannot be; plain pthreads let the body stay an ordinary non-escaping closure.
final class WorkerPool {
    let threads: Int
    private let shared = PoolShared()
    private var handles: [pthread_t] = []

    init(threads: Int) {
        self.threads = max(1, threads)
        for index in 1..<self.threads {
            let context = Unmanaged.passRetained(HelperContext(shared: shared, index: index)).toOpaque()
            var handle = pthread_t()
            if pthread_create(&handle, nil, workerMain, context) == 0 {
                handles.append(handle)
            } else {
                Unmanaged<HelperContext>.fromOpaque(context).release()
            }
        }
    }

    deinit {
        shared.stop.store(true, ordering: .sequentiallyConsistent)
        shared.wakeAll()
        for handle in handles { pthread_join(handle, nil) }
    }

    /// Calls `job.run(chunk:worker:)` for every chunk in `0..<chunks` (each exactly once, on
    /// whichever worker claims it; `worker` in `0..<threads` identifies the thread for per-thread
    /// scratch) and returns when all have returned. Allocates nothing: helpers reach the job through
    /// a pointer to the caller's stack.
    func run<Job: ParallelJob>(chunks: Int, _ job: Job) {
        guard chunks > 0 else { return }
        if handles.isEmpty || chunks == 1 { for c in 0..<chunks { job.run(chunk: c, worker: 0) }; return }
        withUnsafePointer(to: job) { pointer in
            shared.open(job: UnsafeRawPointer(pointer), type: Job.self, chunks: chunks)
            shared.work(worker: 0)
            shared.close()
        }
    }

    /// `run` with a closure: `withoutActuallyEscaping` heap-allocates a small box whenever the
    /// region has more than one chunk, so regions with several chunks in decode are `ParallelJob`
    /// values instead; closures serve regions of one chunk per token (a decode step's per-token
    /// norms) and those that run once per prompt batch.
    func run(chunks: Int, _ body: (_ chunk: Int, _ worker: Int) -> Void) {
        guard chunks > 0 else { return }
        if handles.isEmpty || chunks == 1 { for c in 0..<chunks { body(c, 0) }; return }
        withoutActuallyEscaping(body) { run(chunks: chunks, ClosureJob(body: $0)) }
    }

    /// Splits `0..<count` into at most `parts` ranges of whole `granularity` units; range `index`.
    static func range(_ index: Int, of count: Int, parts: Int, granularity: Int = 1) -> Range<Int> {
        let units = (count + granularity - 1) / granularity
        let lower = min(count, units * index / parts * granularity)
        let upper = min(count, units * (index + 1) / parts * granularity)
        return lower..<upper
    }
}

/// State shared by the pool and its threads (all cross-thread fields are atomics; `job` is written
/// only while no helper can be inside a region).
final class PoolShared {
    let generation = Atomic<Int>(0)
    let isOpen = Atomic<Bool>(false)
    let active = Atomic<Int>(0)
    let nextChunk = Atomic<Int>(0)
    let doneChunks = Atomic<Int>(0)
    let totalChunks = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    var job: UnsafeRawPointer?
    var jobType: (any ParallelJob.Type)?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition); pthread_mutex_destroy(mutex)
        condition.deallocate(); mutex.deallocate()
    }

    func open(job: UnsafeRawPointer, type: any ParallelJob.Type, chunks: Int) {
        self.job = job
        jobType = type
        nextChunk.store(0, ordering: .sequentiallyConsistent)
        doneChunks.store(0, ordering: .sequentiallyConsistent)
        totalChunks.store(chunks, ordering: .sequentiallyConsistent)
        isOpen.store(true, ordering: .sequentiallyConsistent)
        generation.wrappingAdd(1, ordering: .sequentiallyConsistent)
        wakeAll()
    }

    /// Claims and runs chunks until none are left.
    @inline(never)
    func work(worker: Int) {
        let total = totalChunks.load(ordering: .sequentiallyConsistent)
        guard let job, let jobType else { return }
        while true {
            let c = nextChunk.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
            if c >= total { return }
            jobType.invoke(job, chunk: c, worker: worker)
            doneChunks.wrappingAdd(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Waits for chunks still running elsewhere, then for helpers to leave the region.
    func close() {
        let total = totalChunks.load(ordering: .sequentiallyConsistent)
        var spins = 0
        while doneChunks.load(ordering: .sequentiallyConsistent) < total {
            spins += 1
            if spins > 100 { sched_yield() }
        }
        isOpen.store(false, ordering: .sequentiallyConsistent)
        while active.load(ordering: .sequentiallyConsistent) != 0 { sched_yield() }
        job = nil
        jobType = nil
    }

    /// A helper's visit to region `g`: participates only if that region is still open.
    func visit(_ g: Int, worker: Int) {
        active.wrappingAdd(1, ordering: .sequentiallyConsistent)
        if generation.load(ordering: .sequentiallyConsistent) == g, isOpen.load(ordering: .sequentiallyConsistent) {
            work(worker: worker)
        }
        active.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    func wakeAll() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until the generation moves past `seen` (nil on stop): spins, yields, then parks.
    func wait(after seen: Int) -> Int? {
        for spin in 0..<3_000 {
            if stop.load(ordering: .relaxed) { return nil }
            let g = generation.load(ordering: .sequentiallyConsistent)
            if g != seen { return g }
            if spin > 300 { sched_yield() }
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if stop.load(ordering: .sequentiallyConsistent) { return nil }
            let g = generation.load(ordering: .sequentiallyConsistent)
            if g != seen { return g }
            pthread_cond_wait(condition, mutex)
        }
    }
}

final class HelperContext {
    let shared: PoolShared
    let index: Int
    init(shared: PoolShared, index: Int) { self.shared = shared; self.index = index }
}

private func workerMain(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    let context = Unmanaged<HelperContext>.fromOpaque(raw).takeRetainedValue()
    var seen = 0
    while let next = context.shared.wait(after: seen) {
        seen = next
        context.shared.visit(next, worker: context.index)
    }
    return nil
}

/// One parallel region's work, split into chunks (`WorkerPool.run`). A value type: the pool passes
/// helpers a pointer to it, so starting a region allocates nothing.
protocol ParallelJob {
    func run(chunk: Int, worker: Int)
}

extension ParallelJob {
    /// Runs the job of this type stored at `pointer` (how helpers call it without knowing its type).
    static func invoke(_ pointer: UnsafeRawPointer, chunk: Int, worker: Int) {
        pointer.assumingMemoryBound(to: Self.self).pointee.run(chunk: chunk, worker: worker)
    }
}

/// A closure as a job (only alive inside `withoutActuallyEscaping`).
private struct ClosureJob: ParallelJob {
    let body: (Int, Int) -> Void
    func run(chunk: Int, worker: Int) { body(chunk, worker) }
}
