import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardRemote
import SwitchboardTestKit

/// What every scenario shares.
struct ChaosSettings: Sendable {
    var requests = 100
    var concurrency = 8
    /// Small, so the device's share of the work stays quick; the remotes answer six pieces.
    var maxTokens = 8
    var seed: UInt64 = 7
    /// Remote deadlines suited to loopback: a healthy server answers in milliseconds, so a stall is
    /// cut after a second instead of the 60 s defaults meant for the internet.
    var requestTimeout: Duration = .seconds(2)
    var tokenTimeout: Duration = .seconds(1)
    var idleTimeout: Duration = .seconds(1)
    var totalTimeout: Duration = .seconds(10)
    /// `Retry-After` sent by the 429 fault, seconds.
    var retryAfterSeconds = 1
}

/// One scenario: fresh servers and a fresh coordinator (so no breaker or retry budget carries
/// over), the shared on-device provider, the workload, then the servers' counts.
enum ChaosRun {
    static let remoteIDs: [ProviderID] = ["remote-a", "remote-b", "remote-c"]

    /// The runtime's configuration for the chaos bench (see Docs/Performance.md § Chaos):
    /// - `maxAttempts` 7 = two calls on each of three remotes plus the device, so a request that meets
    ///   three failing remotes still reaches its last resort (the default 4 stops before it);
    /// - breakers trip after 3 consecutive failures (default 5), so a dead remote costs fewer requests
    ///   a wasted call before the router skips it, and stay open 20 s (default 5 s, doubling per
    ///   failed probe): fewer probes against a server that is still down, each of which can cost a
    ///   whole request timeout;
    /// - the retry budget keeps its default (20 % of requests + 3), the bound on extra load;
    /// - no cache: every request must reach a provider.
    /// - hedging only in the rows that say so (its extra calls count as attempts).
    static func configuration(seed: UInt64, hedged: Bool = false) -> SwitchboardConfiguration {
        SwitchboardConfiguration(
            retry: RetryPolicy(maxAttemptsPerProvider: 2, maxAttempts: 2 * remoteIDs.count + 1),
            breaker: CircuitBreaker.Configuration(consecutiveFailures: 3, openDuration: .seconds(20)),
            cacheEnabled: false, seed: seed, defaultLatencyBudget: .seconds(60),
            hedging: HedgingPolicy(enabled: hedged))
    }

    static func run(_ scenario: ChaosScenario, local: any Provider, settings: ChaosSettings) async throws -> ChaosRow {
        let replies = ChaosRun.replies(settings)
        var servers: [FaultyChatServer] = []
        var closedPorts: [ClosedLoopbackPort] = []
        var urls: [URL] = []
        defer { for server in servers { server.stop() } }
        for remote in scenario.remotes {
            switch remote {
            case .serving(let plan):
                let server = try FaultyChatServer(plan: plan, replies: replies, sensitiveMarkers: ChaosWorkload.markers)
                servers.append(server); urls.append(server.baseURL)
            case .refused:
                // Bound, never listening: refused for the whole run (a stopped server's port could be
                // handed to the next server started, here or in a test running alongside).
                let closed = try ClosedLoopbackPort()
                closedPorts.append(closed); urls.append(closed.baseURL)
            }
        }
        let remotes = zip(remoteIDs, urls).map { id, url in
            RemoteProvider.openAI(model: "chaos", baseURL: url, id: id, settings: remoteSettings(settings))
        }
        let coordinator = Coordinator(providers: [local] + remotes, configuration: configuration(seed: settings.seed, hedged: scenario.hedged),
                                      deviceState: FixedDeviceState())
        let clock = ContinuousClock()
        let started = clock.now
        let outcomes = await ChaosRunner.run(count: settings.requests, concurrency: settings.concurrency, on: coordinator,
                                             localID: local.id, remotes: remoteIDs, maxTokens: settings.maxTokens)
        let counts = await BenchRunner.waitUntilSettled(coordinator)
        let wall = started.duration(to: clock.now).seconds
        for server in servers { server.stop() }
        withExtendedLifetime(closedPorts) {}
        let received = servers.map(\.counts)
        return ChaosRow(scenario: scenario, counts: counts, outcomes: outcomes,
                        remoteRequests: received.reduce(0) { $0 + $1.requests },
                        sensitiveSentRemote: received.reduce(0) { $0 + $1.sensitive }, wallSeconds: wall)
    }

    static func replies(_ settings: ChaosSettings) -> ChatFaultReplies {
        // Held sockets outlive the client's deadlines, so the client always gives up first.
        ChatFaultReplies(retryAfterSeconds: settings.retryAfterSeconds,
                         holdSeconds: settings.totalTimeout.seconds + 5, resetPauseMilliseconds: 50)
    }

    static func remoteSettings(_ settings: ChaosSettings) -> RemoteProviderSettings {
        RemoteProviderSettings(maxContextTokens: 8192, expectedTimeToFirstToken: .milliseconds(30), expectedTokensPerSecond: 500,
                               requestTimeout: settings.requestTimeout, idleTimeout: settings.idleTimeout,
                               tokenTimeout: settings.tokenTimeout, totalTimeout: settings.totalTimeout)
    }
}
