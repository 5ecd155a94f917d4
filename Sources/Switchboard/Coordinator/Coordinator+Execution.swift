import SwitchboardCore

/// The timing of one request across its attempts; the decisions live in `AttemptStateMachine`.
struct AttemptRun {
    let start: Duration
    var machine: AttemptStateMachine
    /// Where a call's deadline timer sleeps: the coordinator's clock for a budget the app set, nil
    /// (real time, `DeadlineAlarm`) for the default deadline (`SwitchboardConfiguration.defaultDeadline`).
    /// The default is a safety net against a provider that holds a call; on an injected test clock that
    /// jumps ahead on every sleep it would cut each streamed call at once.
    var timerClock: ClockSource?
    var firstTokenAt: Duration?
    var hedges = 0
}

/// What the audit trail needs to know about one request, gathered along its path.
struct AuditTrace {
    var analysis: RequestAnalysis?
    var excluded: [Ineligibility] = []
    var attempts: [RoutingAuditRecord.Attempt] = []
}

extension Coordinator {
    nonisolated(nonsending) func execute(_ request: GenerationRequest, events: EventSink?,
                                         analysis: RequestAnalysis? = nil) async -> Result<GenerationResponse, SwitchboardError> {
        guard let audit else { var none: AuditTrace?; return await execute(request, events: events, analysis: analysis, trace: &none) }
        let requestID = state.withLock { $0.nextRequestID &+= 1; return $0.nextRequestID }
        var traced: AuditTrace? = AuditTrace()
        let result = await execute(request, events: events, analysis: analysis, trace: &traced)
        guard let trace = traced, let analysis = trace.analysis else { return result }  // invalid: never routed
        let outcome: RoutingAuditRecord.Outcome
        var chosen: ProviderID?
        switch result {
        case .success(let response): outcome = response.cached ? .cached : .completed; chosen = response.cached ? nil : response.providerID
        case .failure(.cancelled): outcome = .cancelled
        case .failure: outcome = .failed
        }
        await audit.record(RoutingAuditRecord(requestID: requestID, time: clock.now().seconds, analysis: analysis,
                                              excluded: trace.excluded, attempts: trace.attempts, chosen: chosen, outcome: outcome))
        return result
    }

    private nonisolated(nonsending) func execute(_ request: GenerationRequest, events: EventSink?, analysis precomputed: RequestAnalysis?,
                                     trace: inout AuditTrace?) async -> Result<GenerationResponse, SwitchboardError> {
        let start = clock.now()
        // A precomputed analysis exists only for a request that passed validation.
        if precomputed == nil, let problem = Self.validate(request) { return .failure(.invalidRequest(problem)) }
        var analysis = precomputed ?? analyze(request)  // usually analyzed on the caller's thread
        if let classifier = configuration.privacyClassifier, configuration.privacy.allowsRemote(analysis.privacy) {
            analysis = await secondOpinion(request, analysis, classifier)
        }
        trace?.analysis = analysis  // nil without an audit trail: nothing copied
        events?.yield(.analyzed(analysis))
        if Task.isCancelled { return .failure(.cancelled) }
        let hedged = request.hedge ?? configuration.hedging.enabled
        state.withLock { state in
            state.retryBudget.recordRequest(at: start)
            if hedged { state.hedgeBudget.recordRequest(at: start) }
        }

        var cacheKey: CacheKey?
        if configuration.cacheEnabled, analysis.privacy < .sensitive {
            let key = CacheKey(request: request, privacy: analysis.privacy)
            var found = await cache.lookup(key)
            if found == nil, cache.isSemantic { found = await cache.semanticLookup(key, request: request, privacy: analysis.privacy) }
            if var hit = found {
                hit.timings = ResponseTimings(total: clock.now() - start)
                if !hit.text.isEmpty { events?.yield(.token(hit.text)) }
                return .success(hit)
            }
            cacheKey = key
        }

        // Only a due refresh of the device state or of availability needs an async call.
        let (ranked, ineligible) = stateRefreshDue(at: start) ? await route(request, analysis: analysis, at: start)
                                                              : rank(request, analysis: analysis, at: start)
        trace?.excluded = ineligible
        guard !ranked.isEmpty else { return .failure(.noEligibleProvider(ineligible)) }
        let chosenBudget = request.latencyBudget ?? analysis.latencyBudget ?? configuration.defaultLatencyBudget
        let budget = chosenBudget ?? configuration.defaultDeadline?.budget(maxTokens: request.maxTokens)
        let machine = AttemptStateMachine(
            candidates: ranked.map { .init(id: $0.id, isOnDevice: $0.capabilities.isOnDevice,
                                           maxContextTokens: $0.capabilities.maxContextTokens) },
            level: analysis.privacy, retry: configuration.retry, privacy: configuration.privacy,
            streaming: events != nil, maxResumes: configuration.maxResumes,
            deadline: budget.map { start + $0 },
            size: .init(estimatedPromptTokens: analysis.estimatedPromptTokens, maxTokens: request.maxTokens,
                        imageCount: max(analysis.imageCount, request.images.count)),
            skipped: ineligible)
        var run = AttemptRun(start: start, machine: machine, timerClock: chosenBudget == nil ? nil : clock)
        let result = await attempt(request, analysis: analysis, run: &run, events: events)
        trace?.excluded = run.machine.skipped
        trace?.attempts = run.machine.audit
        if case .success(let response) = result, let cacheKey, analysis.privacy < .sensitive {
            await cache.store(response, for: cacheKey, privacy: analysis.privacy)
        }
        return result
    }

    static func validate(_ request: GenerationRequest) -> String? {
        let hasPrompt = request.prompt.map { !$0.isEmpty } ?? false
        if !hasPrompt && request.messages.isEmpty { return "the request has neither a prompt nor messages" }
        if request.maxTokens < 1 { return "maxTokens must be at least 1 (it is \(request.maxTokens))" }
        if let budget = request.latencyBudget, budget <= .zero { return "latencyBudget must be positive" }
        return nil
    }

    /// Tries the candidates in order, retrying, falling back and resuming as the state machine
    /// decides; this loop only performs its actions (slots, calls, sleeps) and reports back.
    nonisolated(nonsending) func attempt(_ request: GenerationRequest, analysis: RequestAnalysis,
                             run: inout AttemptRun, events: EventSink?) async -> Result<GenerationResponse, SwitchboardError> {
        // The request's start stands for "now" here: nothing that takes time happened since.
        var action = run.machine.start(now: run.start)
        var lease: LoadBalancer.Lease?
        var admission = CircuitBreaker.Admission.allowed
        // When the slot was free, the clock read for the breaker also starts the call (one read less).
        var callStart: Duration?
        while true {
            switch action {
            case .acquire(let id):
                guard let provider = state.withLock({ $0.registry[id]?.provider }) else { action = run.machine.skipped(.unavailable, now: clock.now()); continue }
                // Defence in depth: whatever chose this provider, a private request never leaves the device.
                guard configuration.privacy.mayDispatch(analysis.privacy, onDevice: provider.capabilities.isOnDevice) else {
                    action = run.machine.skipped(.privacy, now: clock.now()); continue
                }
                if Task.isCancelled { action = run.machine.cancelled(); continue }
                let now = clock.now()
                admission = state.withLock { $0.registry[id]?.breaker.admit(at: now) } ?? .rejected
                if admission == .rejected { action = run.machine.skipped(.circuitOpen, now: clock.now()); continue }
                do {
                    // A free slot is taken without an async call; only a wait needs one.
                    let held: LoadBalancer.Lease
                    if let free = loadBalancer.tryAcquire(id) {
                        held = free; callStart = now
                    } else {
                        held = try await loadBalancer.acquire(id, priority: request.priority); callStart = nil
                    }
                    lease = held
                    action = run.machine.admitted(queueWait: held.queueWait)
                } catch {
                    if admission == .probe { state.withLock { $0.registry[id]?.breaker.recordCancelled() } }
                    action = run.machine.slotUnavailable(error, now: clock.now())
                }
            case .call(let plan):
                guard let held = lease, let provider = state.withLock({ $0.registry[plan.provider]?.provider }) else {
                    if let held = lease { await loadBalancer.release(held); lease = nil }
                    action = run.machine.skipped(.unavailable, now: clock.now()); continue
                }
                lease = nil
                for event in plan.events {
                    events?.yield(event)
                    if case .fallback(let from, let to, _) = event { await metrics.recordFallback(from: from, to: to); callStart = nil }
                }
                var callRequest = request
                if let prefix = plan.answerPrefix {
                    // The continuation gets what is left of the token budget.
                    callRequest.answerPrefix = prefix
                    callRequest.maxTokens = max(1, request.maxTokens.saturatingAdd(-run.machine.deliveredTokens))
                }
                let providerRequest = ProviderRequest(request: callRequest, analysis: analysis, attempt: plan.attempt,
                                                      timeout: run.machine.deadline.map { $0 - clock.now() })
                var outcome: CallOutcome
                var answeredBy = plan.provider
                if request.hedge ?? configuration.hedging.enabled,
                   let hedge = await hedgeTarget(for: request, analysis: analysis, run: run, primary: provider) {
                    (answeredBy, outcome) = await callHedged(provider, providerRequest, lease: held, isFallback: plan.isFallback,
                                                             hedge: hedge, run: &run, events: events)
                } else {
                    outcome = await callProvider(provider, providerRequest, deadline: run.machine.deadline, timerClock: run.timerClock,
                                                 events: events, started: callStart)
                    outcome.redactFailure(by: provider)
                    await loadBalancer.release(held, at: outcome.ended)
                    record(outcome, provider: plan.provider, queueWait: held.queueWait, isFallback: plan.isFallback)
                }
                if run.firstTokenAt == nil, let at = outcome.firstTokenAt, events != nil { run.firstTokenAt = at }
                if case .failure(let error) = outcome.result, let cooldown = configuration.retry.cooldown(after: error) {
                    // A long Retry-After benches the provider for that long; the machine falls back now.
                    let until = clock.now() + cooldown
                    state.withLock { $0.registry[answeredBy]?.breaker.coolDown(until: until) }
                }
                if case .failure = outcome.result, Task.isCancelled { action = run.machine.cancelled(); continue }
                let report = AttemptStateMachine.CallReport(
                    result: outcome.result.map(\.reason), usage: try? outcome.result.get().usage,
                    text: outcome.text, tokens: outcome.tokens, now: outcome.ended)
                action = state.withLock { state in run.machine.callFinished(report, budget: &state.retryBudget, random: &state.random) }
                if case .finish(.success(let success)) = action {
                    return .success(response(success, outcome: outcome, run: run, analysis: analysis))
                }
            case .retry(let delay):
                do { try await clock.sleep(for: delay) } catch { action = run.machine.cancelled(); continue }
                action = run.machine.wokeUp(now: clock.now())
            case .finish(let result):
                if let held = lease { await loadBalancer.release(held) }
                switch result {
                case .failure(let error): return .failure(error)
                case .success: return .failure(.cancelled)  // successes return from `.call` with their outcome
                }
            }
        }
    }
}
