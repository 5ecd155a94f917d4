import SwitchboardCore
import Synchronization

// The hedged call strategy (`AttemptStateMachine.CallStrategy.hedged`): the first call, and a second
// one on the machine's hedge candidate if the first is slow to its first token.

/// Where and when a call's hedge would start.
struct HedgeTarget: Sendable {
    var provider: any Provider
    var delay: Duration
}

extension Coordinator {
    /// Where and when the hedge the machine chose would start: its provider as registered now (privacy
    /// checked again, as for any dispatch), after the current provider's p95 time to first token.
    nonisolated func hedgeTarget(_ candidate: AttemptStateMachine.Candidate, primary: any Provider,
                                 run: AttemptRun) async -> HedgeTarget? {
        guard let provider = state.withLock({ $0.registry[candidate.id]?.provider }),
              run.machine.mayHedge(at: provider.capabilities.locality) else { return nil }
        let measured = await metrics.metrics(for: primary.id)?.timeToFirstToken
        let delay = configuration.hedging.delay(measuredP95: measured.flatMap { $0.count > 0 ? $0.p95 : nil },
                                                expected: primary.capabilities.expectedTimeToFirstToken)
        return HedgeTarget(provider: provider, delay: delay)
    }

    /// Calls `primary` and, if it has produced no token after the hedge delay, `hedge.provider` too
    /// (budget and a free slot allowing). The first to produce a token answers; the other is cancelled
    /// at once and its slot released. Both calls are recorded; the winner's report is returned for
    /// the state machine, which was told which provider it was (`hedgeFinished`).
    nonisolated func callHedged(_ primary: any Provider, _ providerRequest: ProviderRequest, lease: LoadBalancer.Lease,
                    isFallback: Bool, hedge: HedgeTarget, run: inout AttemptRun,
                    events: EventSink?) async -> CallReport {
        let clock = clock
        let maxTokens = providerRequest.request.maxTokens
        let (signals, signal) = AsyncStream<RaceSignal>.makeStream()
        let gate = RaceGate()
        let lanes = RaceTasks()
        func start(_ lane: Int, _ stream: ProviderEventStream) {
            let race = RaceLane(gate: gate, lane: lane, signals: signal)
            lanes.add(lane, Task {
                let outcome = await Self.consume(stream, clock: clock, maxTokens: maxTokens, events: events, race: race)
                signal.yield(.finished(lane))
                return outcome
            })
        }
        start(0, await primary.generate(providerRequest))
        let hedgeTimer = Task {
            guard (try? await clock.sleep(for: hedge.delay)) != nil else { return }
            signal.yield(.hedgeDue)
        }
        // The deadline holds for the whole call, the winner's streaming included.
        let timer = run.timerClock
        let deadlineTimer = run.machine.deadline.flatMap { deadline in timer.map { timer in
            Task {
                guard (try? await timer.sleep(for: deadline - clock.now())) != nil else { return }
                lanes.cancel()
                signal.yield(.deadline)
            }
        } }
        // The default deadline runs on real time (`AttemptRun.timerClock`).
        let deadlineAlarm = run.machine.deadline.flatMap { deadline in
            timer == nil ? DeadlineAlarm(after: deadline - clock.now()) { lanes.cancel(); signal.yield(.deadline) } : nil
        }
        var hedgeLease: LoadBalancer.Lease?
        var finished: Set<Int> = []
        var winner: Int?
        var deadlinePassed = false
        await withTaskCancellationHandler {
            race: for await event in signals {
                switch event {
                case .won(let lane):
                    winner = lane
                    lanes.cancel(except: lane)
                    break race
                case .finished(let lane):
                    finished.insert(lane)
                    if finished.count == lanes.count { break race }
                case .hedgeDue:
                    guard !finished.contains(0), let held = await startHedge(hedge, run: &run, events: events) else { continue }
                    hedgeLease = held
                    var hedgeRequest = providerRequest
                    hedgeRequest.attempt = run.machine.totalAttempts
                    start(1, await hedge.provider.generate(hedgeRequest))
                case .deadline:
                    deadlinePassed = true
                    break race
                }
            }
        } onCancel: {
            lanes.cancel()
        }
        hedgeTimer.cancel()

        // The loser first, so its slot is free while the winner still streams.
        var outcomes: [Int: CallReport] = [:]
        for lane in winner == 1 ? [0, 1] : [1, 0] {
            guard let task = lanes.task(lane) else { continue }
            var outcome = await task.value
            if let deadline = run.machine.deadline, deadlinePassed || clock.now() >= deadline, case .failure = outcome.result,
               !Task.isCancelled {
                outcome.result = .failure(.timeout)
            }
            outcome.redactFailure(by: lane == 0 ? primary : hedge.provider)
            outcomes[lane] = outcome
            let (provider, held) = lane == 0 ? (primary.id, lease) : (hedge.provider.id, hedgeLease ?? lease)
            await loadBalancer.release(held)
            record(outcome, provider: provider, queueWait: held.queueWait, isFallback: lane == 0 ? isFallback : true)
        }
        deadlineTimer?.cancel()
        deadlineAlarm?.cancel()
        signal.finish()
        let primaryOutcome = outcomes[0] ?? CallReport(result: .failure(.cancelled), now: clock.now())
        guard let hedgeOutcome = outcomes[1] else { return primaryOutcome }
        let succeeded: (CallReport) -> Bool = { if case .success = $0.result { true } else { false } }
        let hedgeWon = winner == 1 || (winner == nil && !succeeded(primaryOutcome) && succeeded(hedgeOutcome))
        run.machine.hedgeFinished(hedge: hedge.provider.id, hedgeWon: hedgeWon,
                                  hedgeError: hedgeWon ? nil : hedgeOutcome.error)
        let answered = hedgeWon ? hedgeOutcome : primaryOutcome
        await metrics.recordHedge(primary: primary.id, hedge: hedge.provider.id,
                                  winner: succeeded(answered) ? (hedgeWon ? hedge.provider.id : primary.id) : nil)
        return hedgeWon ? hedgeOutcome : primaryOutcome
    }

    /// Takes the budget and a free slot for a hedge call, or nil (then the first call runs alone).
    private nonisolated func startHedge(_ hedge: HedgeTarget, run: inout AttemptRun, events: EventSink?) async -> LoadBalancer.Lease? {
        let id = hedge.provider.id
        let now = clock.now()
        // Budget check, breaker, slot and withdrawal in one section: concurrent hedges cannot
        // both pass the check and overdraw the budget.
        let lease = state.withLock { state -> LoadBalancer.Lease? in
            guard state.hedgeBudget.canRetry(at: now) else { return nil }
            switch state.registry[id]?.breaker.admit(at: now) {
            case .allowed?: break
            case .probe?: state.registry[id]?.breaker.recordCancelled(); return nil  // a half-open provider is no hedge
            default: return nil
            }
            guard let lease = loadBalancer.tryAcquire(id) else { return nil }
            _ = state.hedgeBudget.withdraw(at: now)
            return lease
        }
        guard let lease else { return nil }
        let started = run.machine.hedgeStarted(id, queueWait: lease.queueWait)
        events?.yield(started)
        return lease
    }
}

/// What the two calls of a hedge tell the coordinator while they race.
enum RaceSignal: Sendable {
    /// The lane claimed the race with its first token (or an empty answer's finish).
    case won(Int)
    /// The lane's call ended (after winning, losing or failing).
    case finished(Int)
    /// The first call has been slow long enough: start the hedge.
    case hedgeDue
    /// The request's latency budget ran out.
    case deadline
}

/// The one decision two racing calls share: which of them answers. The first to claim wins.
final class RaceGate: Sendable {
    private let winner = Lock<Int?>(nil)

    func claim(_ lane: Int) -> Bool {
        winner.withLock { current in
            if current == nil { current = lane }
            return current == lane
        }
    }
}

/// One side of a hedge, as `Coordinator.consume` sees it (a class, like `EventSink`, so the
/// optional that every unhedged call carries is a plain pointer).
final class RaceLane: Sendable {
    let gate: RaceGate
    let lane: Int
    let signals: AsyncStream<RaceSignal>.Continuation

    init(gate: RaceGate, lane: Int, signals: AsyncStream<RaceSignal>.Continuation) {
        self.gate = gate; self.lane = lane; self.signals = signals
    }

    /// True when this lane may deliver (it won, now or before); the coordinator is told of a win.
    func claim() -> Bool {
        guard gate.claim(lane) else { return false }
        signals.yield(.won(lane))
        return true
    }
}

/// The racing calls' tasks, reachable from a cancellation handler.
final class RaceTasks: Sendable {
    private let tasks = Lock<[Int: Task<CallReport, Never>]>([:])

    func add(_ lane: Int, _ task: Task<CallReport, Never>) { tasks.withLock { $0[lane] = task } }
    func task(_ lane: Int) -> Task<CallReport, Never>? { tasks.withLock { $0[lane] } }
    var count: Int { tasks.withLock { $0.count } }

    func cancel(except kept: Int? = nil) {
        for (lane, task) in tasks.withLock({ $0 }) where lane != kept { task.cancel() }
    }
}
