import SwitchboardCore

/// One request's attempts: the decisions (`AttemptStateMachine`) and what the driver holds between
/// actions.
struct AttemptRun {
    var machine: AttemptStateMachine
    /// Where a call's deadline timer sleeps: the coordinator's clock for a budget the app set, nil
    /// (real time, `DeadlineAlarm`) for the default deadline (`SwitchboardConfiguration.defaultDeadline`).
    /// The default is a safety net against a provider that holds a call; on an injected test clock that
    /// jumps ahead on every sleep it would cut each streamed call at once.
    var timerClock: ClockSource?
    /// The slot taken for the next call.
    var lease: LoadBalancer.Lease?
    /// When the slot was free, the clock read for the breaker also starts the call (one read less).
    var callStart: Duration?
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
                                           maxContextTokens: $0.capabilities.maxContextTokens, locality: $0.capabilities.locality) },
            level: analysis.privacy, retry: configuration.retry, privacy: configuration.privacy,
            streaming: events != nil, maxResumes: configuration.maxResumes,
            deadline: budget.map { start + $0 },
            size: .init(estimatedPromptTokens: analysis.estimatedPromptTokens, maxTokens: request.maxTokens,
                        imageCount: max(analysis.imageCount, request.images.count)),
            skipped: ineligible, start: start, hedging: hedged)
        var run = AttemptRun(machine: machine, timerClock: chosenBudget == nil ? nil : clock)
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

    /// The driver: performs the state machine's actions (registry look-ups, breaker calls, slots, the
    /// call, sleeps) and feeds back what it found. Every decision is the machine's.
    nonisolated(nonsending) func attempt(_ request: GenerationRequest, analysis: RequestAnalysis,
                                         run: inout AttemptRun, events: EventSink?) async -> Result<GenerationResponse, SwitchboardError> {
        // The request's start stands for "now" here: nothing that takes time happened since.
        var action = run.machine.start(now: run.machine.start)
        while true {
            switch action {
            case .check(let id):
                let locality = state.withLock { $0.registry[id]?.capabilities.locality }
                action = run.machine.located(at: locality, cancelled: Task.isCancelled, now: clock.now())
            case .admit(let id):
                let now = clock.now()
                run.callStart = now
                action = run.machine.breakerAnswered(state.withLock { $0.registry[id]?.breaker.admit(at: now) } ?? .rejected, now: now)
            case .acquire(let id):
                action = await takeSlot(id, priority: request.priority, run: &run)
            case .call(let plan):
                action = await call(plan, request, analysis: analysis, run: &run, events: events)
            case .retry(let delay):
                let slept = (try? await clock.sleep(for: delay)) != nil
                action = slept ? run.machine.wokeUp(now: clock.now()) : run.machine.cancelled()
            case .updateBreaker(let id, let update):
                state.withLock { $0.registry[id]?.breaker.apply(update) }
                action = run.machine.breakerUpdated()
            case .finish(let result):
                if let held = run.lease { await loadBalancer.release(held) }
                return result
            }
        }
    }
}
