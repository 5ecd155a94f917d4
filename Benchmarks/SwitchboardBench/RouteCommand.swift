import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

/// `route`: the runtime's own overhead. N requests with unique public prompts go through the whole
/// Coordinator (analyzer, eligibility, scoring, load balancer, metrics; cache off unless `--cache`)
/// to instant scripted providers. Latency per request is measured one request at a time (so it is
/// overhead, not queueing); throughput with `--concurrency` callers at once.
enum RouteCommand: BenchCommand {
    static let name = "route"
    static let summary = "runtime overhead per request (p50/p99 µs) and requests/s against instant providers"
    static let options: [BenchOption]? = [.integer("requests", 1...10_000_000), .integer("concurrency", 1...1024), .flag("cache"), .flag("json")]

    static func run(_ arguments: Arguments) async -> Int32 {
        let count = arguments.int("requests") ?? 100_000
        let concurrency = arguments.int("concurrency") ?? 2
        guard count > 0, concurrency > 0 else { printError("--requests and --concurrency must be positive"); return 64 }
        let coordinator = makeCoordinator(concurrency: concurrency, cache: arguments.flag("cache"))
        let requests = (0..<count).map { i in
            GenerationRequest(prompt: "Summarize catalogue entry \(i) in one short sentence for the weekly public newsletter.",
                              maxTokens: 16)
        }

        for request in requests.prefix(min(2_000, count)) { _ = try? await coordinator.respond(to: request) }

        let clock = ContinuousClock()
        var samples = [Int64]()
        samples.reserveCapacity(count)
        for request in requests {
            let start = clock.now
            _ = try? await coordinator.respond(to: request)
            let elapsed = start.duration(to: clock.now).components
            samples.append(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        }
        samples.sort()
        let p50 = Double(samples[samples.count / 2]) / 1000
        let p99 = Double(samples[min(samples.count - 1, samples.count * 99 / 100)]) / 1000

        let cpuBefore = processCPUSeconds()
        let started = clock.now
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var index = worker
                    while index < requests.count {
                        _ = try? await coordinator.respond(to: requests[index])
                        index += concurrency
                    }
                }
            }
        }
        let seconds = started.duration(to: clock.now).seconds
        let perSecond = Double(count) / max(seconds, 1e-9)
        // CPU time per request shows the cost apart from how busy the machine is.
        let cpuMicros = (processCPUSeconds() - cpuBefore) * 1e6 / Double(count)
        let counts = coordinator.requestCounts()

        if arguments.flag("json") {
            print("{\"requests\": \(count), \"concurrency\": \(concurrency), "
                + String(format: "\"p50_us\": %.2f, \"p99_us\": %.2f, \"requests_per_second\": %.0f, \"cpu_us_per_request\": %.2f, ",
                                p50, p99, perSecond, cpuMicros)
                + "\"accepted\": \(counts.accepted), \"completed\": \(counts.completed), "
                + "\"failed\": \(counts.failed), \"cancelled\": \(counts.cancelled)}")
        } else {
            print(String(format: "route: %d requests, overhead per request p50 %.2f µs, p99 %.2f µs (one at a time)",
                         count, p50, p99))
            print(String(format: "route: %.0f requests/s with %d concurrent callers (%.2f µs CPU per request)",
                         perSecond, concurrency, cpuMicros))
            print("route: \(counts)")
        }
        return counts.failed == 0 && counts.inProgress == 0 ? 0 : 1
    }

    /// User plus system CPU time of this process.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func makeCoordinator(concurrency: Int, cache: Bool) -> Coordinator {
        let tokens = ["Fine", " thanks", "."]
        let local = ScriptedProvider(
            id: "local-instant",
            capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192,
                                               expectedTimeToFirstToken: .milliseconds(50), expectedTokensPerSecond: 40),
            output: .tokens(tokens), recordsRequests: false)
        let remote = ScriptedProvider(
            id: "remote-instant",
            capabilities: ProviderCapabilities(isOnDevice: false, maxContextTokens: 128_000, supportsImages: true,
                                               supportsStructuredOutput: true,
                                               pricing: TokenPricing(inputPerMillion: 0.15, outputPerMillion: 0.6),
                                               expectedTimeToFirstToken: .milliseconds(300), expectedTokensPerSecond: 100),
            output: .tokens(tokens), recordsRequests: false)
        let configuration = SwitchboardConfiguration(defaultConcurrency: max(4, concurrency), cacheEnabled: cache)
        return Coordinator(providers: [local, remote], configuration: configuration, deviceState: FixedDeviceState())
    }
}
