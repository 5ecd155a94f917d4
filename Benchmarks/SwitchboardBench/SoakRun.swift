import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
import Synchronization

/// A long run through one coordinator, to show that nothing accumulates per request: a streaming
/// on-device stand-in, a remote that fails (before and after its first tokens), a quick remote, and
/// callers that stop reading early. All scripted (no I/O): what is measured is the runtime.
struct SoakSettings: Sendable {
    var requests = 1_000_000
    /// Stops taking new requests after this long, whatever `requests` says.
    var seconds: Double = 900
    var concurrency = 16
    var seed: UInt64 = 7
}

/// What a soak run found. RSS is the resident set as read from /proc/self/status (VmRSS).
struct SoakReport: Encodable, Sendable {
    struct Client: Encodable, Sendable, Hashable {
        var completed = 0, failed = 0, cancelled = 0
        /// Failures by kind (the first words of the error), to tell the scripted faults apart.
        var failures: [String: Int] = [:]
        var total: Int { completed + failed + cancelled }

        mutating func fail(_ error: SwitchboardError) {
            failed += 1
            let kind = switch error {
            case .noEligibleProvider: "noEligibleProvider"
            case .overloaded: "overloaded"
            case .queueTimeout: "queueTimeout"
            case .deadlineExceeded: "deadlineExceeded"
            case .allProvidersFailed: "allProvidersFailed"
            case .failedMidStream: "failedMidStream"
            case .cancelled: "cancelled"
            case .invalidRequest: "invalidRequest"
            }
            failures[kind, default: 0] += 1
        }
    }
    var requestsTarget: Int
    var requestsRun: Int
    var seconds: Double
    var requestsPerSecond: Double
    var rssMBAt10Percent: Double
    var rssMBAt100Percent: Double
    var rssGrowthPercent: Double
    var accepted: Int
    var completed: Int
    var failed: Int
    var cancelled: Int
    var inProgress: Int
    /// `accepted = completed + failed + cancelled` in the coordinator's books, nothing in progress,
    /// every request the callers sent accepted, and the callers' own tally complete.
    var balanced: Bool
    var client: Client
    var resumed: Int
    var timeCapped: Bool

    enum CodingKeys: String, CodingKey {
        case requestsTarget = "requests_target", requestsRun = "requests_run", seconds
        case requestsPerSecond = "requests_per_second", rssMBAt10Percent = "rss_mb_at_10_percent"
        case rssMBAt100Percent = "rss_mb_at_100_percent", rssGrowthPercent = "rss_growth_percent"
        case accepted, completed, failed, cancelled, inProgress = "in_progress", balanced, client, resumed
        case timeCapped = "time_capped"
    }

    /// The soak's pass mark: balanced books and under 5 % RSS growth between the first and last 10 %.
    var passes: Bool { balanced && rssGrowthPercent < 5 }
}

enum SoakRun {
    static let pieces = ["The", " quick", " brown", " fox", " jumps", " over"]

    /// Breakers out of the way (a flaky provider must keep being called), no cache (every request
    /// reaches a provider), resumes on. The default deadline's timers run (on real time, as in an app)
    /// but with a year's allowance: the shared immediate clock's virtual time moves with every
    /// request's sleeps, far faster than any one request's, so a real allowance would expire at random.
    static func configuration(seed: UInt64) -> SwitchboardConfiguration {
        let year = Duration.seconds(365 * 86_400)
        return SwitchboardConfiguration(retry: RetryPolicy(maxAttemptsPerProvider: 2, maxAttempts: 4),
                                        breaker: .init(consecutiveFailures: Int.max / 2, minimumCalls: Int.max / 2),
                                        cacheEnabled: false, seed: seed,
                                        defaultDeadline: RequestDeadline(base: year, maximum: year), maxResumes: 2)
    }

    /// The providers, on a clock that does not wait (pacing still makes real streams and tasks).
    static func providers(seed: UInt64, clock: ImmediateClock) -> [ScriptedProvider] {
        let device = ScriptedProvider(id: "device", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192),
                                      output: .tokens(pieces), tokenInterval: .milliseconds(1), recordsRequests: false, clock: clock)
        let flakyFaults = FaultInjector(seed: seed, rate: 0.3, faults: [
            .error(.server(status: 503, message: "busy")), .failAfterTokens(2, .transport("reset")), .truncate,
        ])
        let flaky = ScriptedProvider(id: "remote-flaky", capabilities: ProviderCapabilities(isOnDevice: false, maxContextTokens: 32_768),
                                     output: .tokens(pieces), faults: flakyFaults, recordsRequests: false, clock: clock)
        let quick = ScriptedProvider(id: "remote-quick", capabilities: ProviderCapabilities(isOnDevice: false, maxContextTokens: 32_768),
                                     output: .tokens(pieces), recordsRequests: false, clock: clock)
        return [device, flaky, quick]
    }

    /// What the caller does with request `index`: read it all, stop early, or use `respond`.
    enum Caller: Sendable { case streamAll, stopAfterAnalysis, stopAfterFirstToken, respond }

    static func caller(for index: Int, seed: UInt64) -> (Caller, [ProviderID]) {
        var random = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
        let roll = random.nextUnit()
        let caller: Caller = roll < 0.05 ? .stopAfterAnalysis : roll < 0.12 ? .stopAfterFirstToken : roll < 0.25 ? .respond : .streamAll
        let preferred: [[ProviderID]] = [["remote-flaky"], ["remote-flaky"], ["device"], []]
        return (caller, preferred[Int(random.next() % 4)])
    }

    /// One request as its caller sees it.
    static func one(_ index: Int, seed: UInt64, on coordinator: Coordinator, tally: inout SoakReport.Client, resumed: inout Int) async {
        let (caller, preferred) = caller(for: index, seed: seed)
        let request = GenerationRequest(prompt: "Soak request \(index % 1000): say something short.", maxTokens: 8,
                                        preferredProviders: preferred)
        if caller == .respond {
            do { _ = try await coordinator.respond(to: request); tally.completed += 1 } catch { tally.fail(error) }
            return
        }
        for await event in coordinator.stream(request) {
            switch event {
            case .analyzed where caller == .stopAfterAnalysis, .token where caller == .stopAfterFirstToken:
                tally.cancelled += 1
                return  // ending the iteration cancels the request
            case .resumed: resumed += 1
            case .completed: tally.completed += 1; return
            case .failed(.cancelled): tally.cancelled += 1; return
            case .failed(let error): tally.fail(error); return
            default: break
            }
        }
        tally.failed += 1  // a stream that ended without a terminal event would be a bug: counted, and unbalancing
    }

    static func run(_ settings: SoakSettings, progress: (@Sendable (Int) -> Void)? = nil) async -> SoakReport {
        let clock = ImmediateClock()
        let coordinator = Coordinator(providers: providers(seed: settings.seed, clock: clock),
                                      configuration: configuration(seed: settings.seed), clock: clock, deviceState: FixedDeviceState())
        let target = max(1, settings.requests)
        let step = max(1, target / 100)
        let shared = SoakCounters()
        let wall = ContinuousClock()
        let started = wall.now
        let stopAt = started.advanced(by: .seconds(max(0, settings.seconds)))
        let results = await withTaskGroup(of: (SoakReport.Client, Int).self) { group in
            for _ in 0..<max(1, settings.concurrency) {
                group.addTask {
                    var tally = SoakReport.Client()
                    var resumed = 0
                    while true {
                        let index = shared.taken.add(1, ordering: .relaxed).oldValue
                        guard index < target, wall.now < stopAt else { break }
                        await one(index, seed: settings.seed, on: coordinator, tally: &tally, resumed: &resumed)
                        let done = shared.finished.add(1, ordering: .relaxed).newValue
                        if done % step == 0 {
                            let rss = residentMB()
                            shared.samples.withLock { $0.append(SoakCounters.Sample(finished: done, rssMB: rss)) }
                            progress?(done)
                        }
                    }
                    return (tally, resumed)
                }
            }
            var total = (SoakReport.Client(), 0)
            for await (tally, resumed) in group {
                total.0.completed += tally.completed; total.0.failed += tally.failed; total.0.cancelled += tally.cancelled
                total.0.failures.merge(tally.failures, uniquingKeysWith: +)
                total.1 += resumed
            }
            return total
        }
        let counts = await BenchRunner.waitUntilSettled(coordinator)
        let seconds = started.duration(to: wall.now).seconds
        let run = shared.finished.load(ordering: .relaxed)
        let final = residentMB()
        let atTenPercent = shared.samples.withLock { list in list.first { $0.finished >= run / 10 }?.rssMB } ?? final
        let client = results.0
        return SoakReport(
            requestsTarget: target, requestsRun: run, seconds: (seconds * 100).rounded() / 100,
            requestsPerSecond: seconds > 0 ? (Double(run) / seconds).rounded() : 0,
            rssMBAt10Percent: round1(atTenPercent), rssMBAt100Percent: round1(final),
            rssGrowthPercent: atTenPercent > 0 ? ((final - atTenPercent) / atTenPercent * 1000).rounded() / 10 : 0,
            accepted: counts.accepted, completed: counts.completed, failed: counts.failed, cancelled: counts.cancelled,
            inProgress: counts.inProgress,
            balanced: counts.inProgress == 0 && counts.accepted == counts.finished && counts.accepted == run && client.total == run,
            client: client, resumed: results.1, timeCapped: run < target)
    }

    static func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }

    /// The resident set now (VmRSS), in MB; the peak where /proc is missing.
    static func residentMB() -> Double {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
           let kb = Double(line.split(separator: " ").dropFirst().first ?? "") {
            return kb / 1024
        }
        return EngineSupport.peakRSSMegabytes()
    }
}

/// The workers' shared progress: the next request index, requests finished, and RSS samples.
final class SoakCounters: Sendable {
    struct Sample: Sendable { var finished: Int; var rssMB: Double }
    let taken = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    /// One every 1 % of the target: the 10 % mark is read from these.
    let samples = Mutex<[Sample]>([])
}
