import Foundation
import Synchronization

/// A persistent pool of kernel threads. `run` executes one parallel region: the calling thread is
/// worker 0 and `threads - 1` pool threads take the other indices. Between regions the pool threads
/// spin briefly (regions of a forward pass follow each other within microseconds), then park on a
/// condition variable. No allocation, task or actor hop per region.
///
/// Dispatch's `concurrentPerform` would need a `@Sendable` body, which the kernels' raw pointers
/// cannot be; plain pthreads let the body stay an ordinary non-escaping closure.
final class WorkerPool {
    let threads: Int
    private let shared: PoolShared
    private var handles: [pthread_t] = []

    init(threads: Int) {
        self.threads = max(1, threads)
        shared = PoolShared()
        for index in 1..<self.threads {
            let context = Unmanaged.passRetained(WorkerContext(shared: shared, index: index)).toOpaque()
            var handle = pthread_t()
            if pthread_create(&handle, nil, workerMain, context) == 0 {
                handles.append(handle)
            } else {
                Unmanaged<WorkerContext>.fromOpaque(context).release()
            }
        }
    }

    deinit {
        shared.stop.store(true, ordering: .releasing)
        shared.wakeAll()
        for handle in handles { pthread_join(handle, nil) }
    }

    /// Calls `body(worker)` for every worker index and returns when all calls have returned.
    func run(_ body: (Int) -> Void) {
        let helpers = handles.count
        if helpers == 0 { for i in 0..<threads { body(i) }; return }
        withoutActuallyEscaping(body) { job in
            shared.job = job
            shared.remaining.store(helpers, ordering: .relaxed)
            shared.generation.wrappingAdd(1, ordering: .releasing)
            shared.wakeAll()
            body(0)
            // Indices whose thread failed to start run here.
            for i in (helpers + 1)..<threads { body(i) }
            while shared.remaining.load(ordering: .acquiring) != 0 {}
            shared.job = nil
        }
    }

    /// The share of `0..<count` worker `worker` handles, in multiples of `granularity`.
    func range(_ worker: Int, of count: Int, granularity: Int = 1) -> Range<Int> {
        let units = (count + granularity - 1) / granularity
        let lower = min(count, units * worker / threads * granularity)
        let upper = min(count, units * (worker + 1) / threads * granularity)
        return lower..<upper
    }
}

/// State shared by the pool and its threads.
final class PoolShared {
    let generation = Atomic<Int>(0)
    let remaining = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    /// The current region's body; set only while no worker is running.
    var job: ((Int) -> Void)?
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

    func wakeAll() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until the generation moves past `seen` (or stop); spins first, then parks.
    func wait(after seen: Int) -> Int? {
        for _ in 0..<20_000 {
            if stop.load(ordering: .acquiring) { return nil }
            let g = generation.load(ordering: .acquiring)
            if g != seen { return g }
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if stop.load(ordering: .acquiring) { return nil }
            let g = generation.load(ordering: .acquiring)
            if g != seen { return g }
            pthread_cond_wait(condition, mutex)
        }
    }

    /// Runs the current job; its closure reference is released before returning.
    @inline(never)
    func runJob(_ index: Int) {
        job?(index)
    }
}

final class WorkerContext {
    let shared: PoolShared
    let index: Int
    init(shared: PoolShared, index: Int) { self.shared = shared; self.index = index }
}

private func workerMain(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    let context = Unmanaged<WorkerContext>.fromOpaque(raw).takeRetainedValue()
    let shared = context.shared
    var seen = 0  // the pool starts at generation 0; a region already published is picked up at once
    while let next = shared.wait(after: seen) {
        seen = next
        shared.runJob(context.index)
        shared.remaining.subtract(1, ordering: .releasing)
    }
    return nil
}
