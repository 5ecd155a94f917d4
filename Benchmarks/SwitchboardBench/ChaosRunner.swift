import Foundation
import Switchboard
import SwitchboardCore

/// What one chaos request came to, as the caller saw it through `Coordinator.stream`.
struct ChaosOutcome: Sendable {
    enum End: Sendable { case completed, failed, cancelled }
    var end: End = .failed
    var sensitive = false
    /// Provider calls: the response's count, or the `providerChosen` events of a failed request.
    var attempts = 0
    var resumes = 0
    var hedges = 0
    var servedOnDevice = false
    var milliseconds = 0.0
    /// Why it failed, without server text (`failedMidStream: transport`).
    var failure: String?
}

/// Runs a scenario's requests with at most `concurrency` in flight.
enum ChaosRunner {
    static func run(count: Int, concurrency: Int, on coordinator: Coordinator, localID: ProviderID, remotes: [ProviderID],
                    maxTokens: Int) async -> [ChaosOutcome] {
        await withTaskGroup(of: ChaosOutcome.self) { group in
            var outcomes: [ChaosOutcome] = []
            outcomes.reserveCapacity(count)
            var next = 0
            func launch() {
                let request = ChaosWorkload.request(next, remotes: remotes, maxTokens: maxTokens)
                let sensitive = ChaosWorkload.isSensitive(next)
                group.addTask { await one(request, sensitive: sensitive, on: coordinator, localID: localID) }
                next += 1
            }
            while next < min(max(1, concurrency), count) { launch() }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if next < count { launch() }
            }
            return outcomes
        }
    }

    static func one(_ request: GenerationRequest, sensitive: Bool, on coordinator: Coordinator, localID: ProviderID) async -> ChaosOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = ChaosOutcome(sensitive: sensitive)
        var chosen = 0, resumed = 0, hedged = 0
        for await event in coordinator.stream(request) {
            switch event {
            case .providerChosen: chosen += 1
            case .resumed: resumed += 1
            case .hedged: hedged += 1
            case .completed(let response):
                outcome.end = .completed
                outcome.attempts = max(response.attempts, chosen)
                outcome.resumes = max(response.resumes, resumed)
                outcome.hedges = max(response.hedges, hedged)
                outcome.servedOnDevice = response.providerID == localID
            case .failed(let error):
                outcome.end = error == .cancelled ? .cancelled : .failed
                outcome.attempts = chosen
                outcome.resumes = resumed
                outcome.hedges = hedged
                outcome.failure = summary(error)
            default: break
            }
        }
        outcome.milliseconds = start.duration(to: clock.now).seconds * 1000
        return outcome
    }

    /// The error's kind, never a server's message.
    static func summary(_ error: SwitchboardError) -> String {
        switch error {
        case .failedMidStream(let failure): "failed mid-stream: \(failure.error.auditKind)"
        case .allProvidersFailed(let failures):
            "all providers failed: " + Set(failures.map(\.error.auditKind)).sorted().joined(separator: ", ")
        case .noEligibleProvider: "no eligible provider"
        case .overloaded: "overloaded"
        case .queueTimeout: "queue timeout"
        case .deadlineExceeded: "deadline exceeded"
        case .cancelled: "cancelled"
        case .invalidRequest: "invalid request"
        }
    }
}
