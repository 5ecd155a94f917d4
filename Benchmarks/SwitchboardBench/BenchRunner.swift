import Foundation
import Switchboard
import SwitchboardCore

/// What happened to one job, as the caller saw it through `Coordinator.stream`.
struct BenchOutcome: Sendable {
    var label: String
    var prompt: String
    var privacy: PrivacyLevel?
    var provider: ProviderID?
    var completed = false
    var cancelledOnPurpose = false
    var fallbackUsed = false
    /// The answer was continued on another provider after a failure mid-stream.
    var resumed = false
    var cached = false
    var text = ""
    var error: SwitchboardError?
}

/// Runs jobs through the coordinator with at most `concurrency` in flight, like an app with several
/// screens asking at once. Deliberate cancellations end the caller's iteration (after the first token)
/// or cancel the caller's task (after a delay).
enum BenchRunner {
    static func run(_ jobs: [BenchJob], on coordinator: Coordinator, concurrency: Int,
                    progress: @escaping @Sendable (Int) async -> Void) async -> [BenchOutcome] {
        await withTaskGroup(of: (Int, BenchOutcome).self) { group in
            var results = [BenchOutcome?](repeating: nil, count: jobs.count)
            var next = 0
            var done = 0
            func launch(_ index: Int) {
                let job = jobs[index]
                group.addTask { (index, await runOne(job, on: coordinator)) }
            }
            while next < min(concurrency, jobs.count) { launch(next); next += 1 }
            while let (index, outcome) = await group.next() {
                results[index] = outcome
                done += 1
                await progress(done)
                if next < jobs.count { launch(next); next += 1 }
            }
            return results.compactMap { $0 }
        }
    }

    static func runOne(_ job: BenchJob, on coordinator: Coordinator) async -> BenchOutcome {
        let consumer = Task { () -> BenchOutcome in
            var outcome = BenchOutcome(label: job.label, prompt: job.request.prompt ?? job.request.messages.last?.content ?? "")
            for await event in coordinator.stream(job.request) {
                switch event {
                case .analyzed(let analysis): outcome.privacy = analysis.privacy
                case .providerChosen(let provider, _): outcome.provider = provider
                case .token(let piece):
                    outcome.text += piece
                    if case .afterFirstToken? = job.cancel {
                        outcome.cancelledOnPurpose = true
                        return outcome  // ending the iteration cancels the request
                    }
                case .fallback: outcome.fallbackUsed = true
                case .resumed: outcome.resumed = true
                case .hedged: break
                case .completed(let response):
                    outcome.completed = true
                    outcome.provider = response.providerID
                    outcome.cached = response.cached
                    outcome.text = response.text
                case .failed(let error): outcome.error = error
                default: break  // tool, resume and hedge events: the outcome comes from completed
                }
            }
            return outcome
        }
        guard case .after(let delay)? = job.cancel else { return await consumer.value }
        let timer = Task {
            try await Task.sleep(for: delay)
            consumer.cancel()
        }
        var outcome = await consumer.value
        timer.cancel()
        if !outcome.completed { outcome.cancelledOnPurpose = true }
        return outcome
    }

    /// Cancelled requests settle asynchronously: wait (briefly) until every accepted one has ended.
    static func waitUntilSettled(_ coordinator: Coordinator) async -> RequestCounts {
        var counts = coordinator.requestCounts()
        for _ in 0..<500 where counts.inProgress > 0 {
            try? await Task.sleep(for: .milliseconds(10))
            counts = coordinator.requestCounts()
        }
        return counts
    }
}
