import SwitchboardCore

/// The state of one request across its attempts.
struct AttemptRun {
    let start: Duration
    let deadline: Duration?
    var failures: [AttemptFailure] = []
    var skipped: [Ineligibility]
    var totalAttempts = 0
    var firstProvider: ProviderID?
    var queueWait: Duration = .zero
    var firstTokenAt: Duration?
    /// A failed provider whose successor has not been chosen yet.
    var pendingFallback: (from: ProviderID, reason: ProviderError)?
    /// After a context-length failure, only providers with a larger context.
    var minimumContext: Int?
    /// The last `overloaded`/`queueTimeout`, reported if nothing else went wrong.
    var slotError: SwitchboardError?
    /// Every provider call, for the audit trail.
    var attempts: [RoutingAuditRecord.Attempt] = []
}

/// What the audit trail needs to know about one request, gathered along its path.
struct AuditTrace {
    var analysis: RequestAnalysis?
    var excluded: [Ineligibility] = []
    var attempts: [RoutingAuditRecord.Attempt] = []
}

extension Coordinator {
    func execute(_ request: GenerationRequest, events: EventSink?,
                 analysis: RequestAnalysis? = nil) async -> Result<GenerationResponse, SwitchboardError> {
        guard let audit else { var trace = AuditTrace(); return await execute(request, events: events, analysis: analysis, trace: &trace) }
        nextRequestID &+= 1
        let requestID = nextRequestID
        var trace = AuditTrace()
        let result = await execute(request, events: events, analysis: analysis, trace: &trace)
        guard let analysis = trace.analysis else { return result }  // invalid: never routed
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

    private func execute(_ request: GenerationRequest, events: EventSink?, analysis precomputed: RequestAnalysis?,
                         trace: inout AuditTrace) async -> Result<GenerationResponse, SwitchboardError> {
        let start = clock.now()
        if let problem = Self.validate(request) { return .failure(.invalidRequest(problem)) }
        let analysis = precomputed ?? analyze(request)  // usually analyzed on the caller's thread
        trace.analysis = analysis
        events?.yield(.analyzed(analysis))
        if Task.isCancelled { return .failure(.cancelled) }
        retryBudget.recordRequest(at: start)

        var cacheKey: CacheKey?
        if configuration.cacheEnabled, analysis.privacy < .sensitive {
            let key = CacheKey(request: request, privacy: analysis.privacy)
            if var hit = await cache.lookup(key) {
                hit.timings = ResponseTimings(total: clock.now() - start)
                if !hit.text.isEmpty { events?.yield(.token(hit.text)) }
                return .success(hit)
            }
            cacheKey = key
        }

        let (ranked, ineligible) = await route(request, analysis: analysis)
        trace.excluded = ineligible
        guard !ranked.isEmpty else { return .failure(.noEligibleProvider(ineligible)) }
        let budget = request.latencyBudget ?? analysis.latencyBudget ?? configuration.defaultLatencyBudget
        var run = AttemptRun(start: start, deadline: budget.map { start + $0 }, skipped: ineligible)
        let result = await attempt(ranked, request: request, analysis: analysis, run: &run, events: events)
        trace.excluded = run.skipped
        trace.attempts = run.attempts
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

    /// Tries the candidates in order, retrying and falling back per policy.
    func attempt(_ ranked: [ProviderCandidate], request: GenerationRequest, analysis: RequestAnalysis,
                 run: inout AttemptRun, events: EventSink?) async -> Result<GenerationResponse, SwitchboardError> {
        candidates: for candidate in ranked {
            let id = candidate.id
            if let minimum = run.minimumContext, candidate.capabilities.maxContextTokens <= minimum {
                run.skipped.append(Ineligibility(provider: id, reason: .contextTooSmall)); continue
            }
            var attemptsHere = 0
            while true {
                guard let provider = registry[id]?.provider else { continue candidates }
                // Defence in depth: whatever chose this provider, a private request never leaves the device.
                guard configuration.privacy.mayDispatch(analysis.privacy, onDevice: provider.capabilities.isOnDevice) else {
                    run.skipped.append(Ineligibility(provider: id, reason: .privacy)); continue candidates
                }
                if Task.isCancelled { return .failure(.cancelled) }
                if let deadline = run.deadline, clock.now() >= deadline { return .failure(.deadlineExceeded) }
                let admission = registry[id]?.breaker.admit(at: clock.now()) ?? .rejected
                if admission == .rejected {
                    run.skipped.append(Ineligibility(provider: id, reason: .circuitOpen)); continue candidates
                }
                let lease: LoadBalancer.Lease
                do {
                    lease = try await loadBalancer.acquire(id, priority: request.priority)
                } catch {
                    if admission == .probe { registry[id]?.breaker.recordCancelled() }
                    if error == .cancelled { return .failure(.cancelled) }
                    run.slotError = error
                    continue candidates
                }
                run.totalAttempts += 1
                attemptsHere += 1
                run.queueWait += lease.queueWait
                let isFallback = run.firstProvider.map { $0 != id } ?? false
                if run.firstProvider == nil { run.firstProvider = id }
                if let pending = run.pendingFallback {
                    events?.yield(.fallback(from: pending.from, to: id, reason: pending.reason))
                    await metrics.recordFallback(from: pending.from, to: id)
                    run.pendingFallback = nil
                }
                events?.yield(.providerChosen(id, attempt: run.totalAttempts))
                run.attempts.append(RoutingAuditRecord.Attempt(provider: id, onDevice: provider.capabilities.isOnDevice, failure: nil))

                let now = clock.now()
                let providerRequest = ProviderRequest(request: request, analysis: analysis, attempt: run.totalAttempts,
                                                      timeout: run.deadline.map { $0 - now })
                let outcome = await callProvider(provider, providerRequest, deadline: run.deadline, events: events)
                await loadBalancer.release(lease)
                await record(outcome, provider: id, queueWait: lease.queueWait, isFallback: isFallback)
                if run.firstTokenAt == nil, let at = outcome.firstTokenAt, events != nil { run.firstTokenAt = at }

                let error: ProviderError
                switch outcome.result {
                case .success(let finish):
                    return .success(response(outcome, finish: finish, provider: id, analysis: analysis, run: run))
                case .failure(let failure):
                    error = failure
                }
                run.failures.append(AttemptFailure(provider: id, error: error))
                run.attempts[run.attempts.count - 1].failure = error.auditKind
                if Task.isCancelled { return .failure(.cancelled) }
                let now2 = clock.now()
                let context = FailureContext(
                    error: error, attemptsOnProvider: attemptsHere, totalAttempts: run.totalAttempts,
                    tokensDelivered: events != nil && outcome.tokens > 0, now: now2, deadline: run.deadline,
                    budgetAllowsRetry: retryBudget.canRetry(at: now2))
                // A long Retry-After benches the provider for that long; the decision below falls back now.
                if let cooldown = configuration.retry.cooldown(after: error) {
                    registry[id]?.breaker.coolDown(until: now2 + cooldown)
                }
                switch configuration.retry.decide(context, random: &random) {
                case .retry(let delay):
                    _ = retryBudget.withdraw(at: now2)
                    do { try await clock.sleep(for: delay) } catch { return .failure(.cancelled) }
                case .fallback(let minimumContext):
                    if let minimumContext { run.minimumContext = max(run.minimumContext ?? 0, minimumContext) }
                    run.pendingFallback = (id, error)
                    continue candidates
                case .fail(.tokensDelivered):
                    return .failure(.failedMidStream(AttemptFailure(provider: id, error: error)))
                case .fail(.deadline):
                    return .failure(.deadlineExceeded)
                case .fail:
                    return .failure(.allProvidersFailed(run.failures))
                }
            }
        }
        if let deadline = run.deadline, clock.now() >= deadline { return .failure(.deadlineExceeded) }
        if !run.failures.isEmpty { return .failure(.allProvidersFailed(run.failures)) }
        if let slotError = run.slotError { return .failure(slotError) }
        return .failure(.noEligibleProvider(run.skipped))
    }
}
