import Dispatch

/// Runs one parallel region at a time over a fixed number of workers. Regions are dispatched with
/// `DispatchQueue.concurrentPerform` (threads stay parked in the Dispatch pool between regions; no
/// allocation or task hop per region). Each worker gets an index in `0..<threads`.
struct WorkerPool {
    let threads: Int

    init(threads: Int) { self.threads = max(1, threads) }

    /// Calls `body(worker)` once per worker and returns when all are done.
    func run(_ body: (Int) -> Void) {
        if threads == 1 { body(0); return }
        DispatchQueue.concurrentPerform(iterations: threads, execute: body)
    }

    /// The share of `0..<count` worker `worker` handles, in multiples of `granularity`.
    func range(_ worker: Int, of count: Int, granularity: Int = 1) -> Range<Int> {
        let units = (count + granularity - 1) / granularity
        let lower = min(count, units * worker / threads * granularity)
        let upper = min(count, units * (worker + 1) / threads * granularity)
        return lower..<upper
    }
}
