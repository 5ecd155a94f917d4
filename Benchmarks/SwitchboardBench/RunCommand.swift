import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardLocal

/// `run` (the default): the main job. Loads both on-device models with a progress bar, runs a mixed
/// workload through the whole runtime (analyzer, coordinator, load balancer, metrics, cache) over the
/// base model, the instruct model and four scripted remote providers (healthy, flaky at 20% errors,
/// slow, down), then prints a table per provider, the privacy and bookkeeping lines and each engine's
/// prefill/decode speed.
enum RunCommand: BenchCommand {
    static let name = "run"
    static let summary = "main job: local model + scripted remotes through the full runtime; per-provider report [--json PATH] [--audit PATH]"
    static let options: [BenchOption]? = [
        .integer("local-requests", 3...100_000), .integer("chat-requests", 0...100_000), .integer("remote-requests", 0...1_000_000),
        .integer("max-tokens", 1...4096), .integer("concurrency", 1...1024), .seed(), .text("audit"), .text("json"),
    ] + BenchOption.localModel

    static func run(_ arguments: Arguments) async -> Int32 {
        let wall = ContinuousClock.now
        let localRequests = arguments.int("local-requests") ?? 24
        let chatRequests = arguments.int("chat-requests") ?? 12
        let remoteRequests = arguments.int("remote-requests") ?? 60
        let maxTokens = arguments.int("max-tokens") ?? 24
        let concurrency = arguments.int("concurrency") ?? 6
        let seed = arguments.uint64("seed") ?? 7
        guard localRequests >= 3, chatRequests >= 0, remoteRequests >= 0, maxTokens >= 1, concurrency >= 1 else {
            printError("--local-requests must be at least 3; --chat-requests, --remote-requests, --max-tokens and --concurrency positive")
            return 64
        }
        let threads = BenchLocalModel.threads(arguments)
        let local = BenchLocalModel.makeProvider(path: BenchLocalModel.path(arguments), threads: threads)
        let chat = BenchLocalModel.makeProvider(.smolLM2_135mInstruct, path: BenchLocalModel.chatPath(arguments), threads: threads)
        guard await BenchLocalModel.load(local), await BenchLocalModel.load(chat) else { return 1 }

        let fleet = BenchFleet(completion: local, chat: chat, seed: seed)
        let metrics = MetricsActor()
        // --audit PATH: every routing decision as JSON lines (no prompt text).
        let audit = arguments.string("audit").map { _ in AuditTrail() }
        let coordinator = Coordinator(
            providers: fleet.all,
            // Each engine decodes its requests together (its batch size, advertised as the providers'
            // maxConcurrency); the load balancer queues the rest by priority.
            configuration: SwitchboardConfiguration(seed: seed),
            deviceState: SystemStateSource(), analyzer: RequestAnalyzer(), metrics: metrics, cache: CacheActor(), audit: audit)
        let jobs = BenchWorkload.jobs(localRequests: localRequests, chatRequests: chatRequests, remoteRequests: remoteRequests,
                                      maxTokens: maxTokens, localID: fleet.localID, chatID: fleet.chatID, seed: seed)
        let bar = BenchProgressBox(BenchProgressBar(title: "workload"))
        let total = jobs.count
        let outcomes = await BenchRunner.run(jobs, on: coordinator, concurrency: concurrency) { done in
            await bar.update(Double(done) / Double(total), label: "requests", detail: "\(done)/\(total)")
        }
        let counts = await BenchRunner.waitUntilSettled(coordinator)
        await bar.finish("\(total) requests done")

        var engines: [BenchReport.Engine] = []
        for provider in [local, chat] {
            if let engine = await BenchEngineMeasure.measure(provider, threads: threads) { engines.append(engine) }
        }
        let report = await makeReport(outcomes: outcomes, counts: counts, fleet: fleet, metrics: metrics,
                                      engines: engines, wallSeconds: wall.duration(to: .now).seconds)
        print(report.text())
        if let path = arguments.string("json") {
            do { try report.json().write(to: URL(fileURLWithPath: path)) } catch {
                printError("cannot write \(path): \(error.localizedDescription)")
                return 1
            }
            print("report written to \(path)")
        }
        if let audit, let path = arguments.string("audit") {
            do { try await audit.jsonLines().write(to: URL(fileURLWithPath: path)) } catch {
                printError("cannot write \(path): \(error.localizedDescription)")
                return 1
            }
            print("audit trail written to \(path)")
        }
        let consistent = counts.accepted == counts.finished && report.sensitiveSentRemote == 0
            && report.sensitiveServedOnDevice == report.sensitiveRequests
        return consistent ? 0 : 1
    }

    static func makeReport(outcomes: [BenchOutcome], counts: RequestCounts, fleet: BenchFleet, metrics: MetricsActor,
                           engines: [BenchReport.Engine], wallSeconds: Double) async -> BenchReport {
        let snapshot = await metrics.snapshot()
        let sensitiveByProvider = await fleet.sensitiveReceived()
        let rows = fleet.all.map { provider -> BenchReport.ProviderRow in
            let m = snapshot.providers[provider.id]
            // Speed figures need at least one success; show "-" rather than a misleading zero.
            let served = (m?.successes ?? 0) > 0
            return BenchReport.ProviderRow(
                id: provider.id.rawValue, onDevice: provider.capabilities.isOnDevice, requests: m?.requests ?? 0,
                successes: m?.successes ?? 0, failures: m?.failures ?? 0, cancellations: m?.cancellations ?? 0,
                fallbacksIn: m?.fallbacksIn ?? 0, fallbacksOut: m?.fallbacksOut ?? 0,
                latencyP50Ms: Self.milliseconds(m?.latency), latencyP99Ms: m.flatMap { Self.milliseconds($0.latency, \.p99) },
                timeToFirstTokenP50Ms: served ? Self.milliseconds(m?.timeToFirstToken) : nil,
                tokensPerSecond: served ? m?.tokensPerSecond : nil, sensitiveReceived: sensitiveByProvider[provider.id] ?? 0)
        }
        let sensitive = outcomes.filter { $0.privacy == .sensitive }
        let servedOnDevice = sensitive.filter { outcome in
            outcome.completed && fleet.all.first { $0.id == outcome.provider }?.capabilities.isOnDevice == true
        }
        let sentRemote = fleet.remotes.reduce(0) { $0 + (sensitiveByProvider[$1.id] ?? 0) }
        var failures: [String: Int] = [:]
        for outcome in outcomes where !outcome.cancelledOnPurpose {
            if let error = outcome.error { failures[error.description, default: 0] += 1 }
        }
        func sample(_ label: String, _ provider: ProviderID) -> String? {
            outcomes.first { $0.label == label && $0.completed && $0.provider == provider }
                .map { "\"\($0.prompt)\" → \"\(Self.oneLine($0.text))\" (\(provider))" }
        }
        return BenchReport(
            accepted: counts.accepted, completed: counts.completed, failed: counts.failed, cancelled: counts.cancelled,
            cacheHits: counts.cacheHits, sensitiveRequests: sensitive.count, sensitiveServedOnDevice: servedOnDevice.count,
            sensitiveSentRemote: sentRemote, providers: rows, engines: engines, wallSeconds: wallSeconds,
            samples: [sample("public-local", fleet.localID), sample("public-chat", fleet.chatID)].compactMap { $0 },
            failureReasons: failures, resumed: outcomes.filter(\.resumed).count)
    }

    static func milliseconds(_ summary: LatencySummary?, _ percentile: KeyPath<LatencySummary, Duration> = \.p50) -> Double? {
        guard let summary, summary.count > 0 else { return nil }
        return summary[keyPath: percentile].seconds * 1000
    }

    static func oneLine(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ⏎ ")
        return flat.count > 120 ? String(flat.prefix(117)) + "…" : flat
    }
}
