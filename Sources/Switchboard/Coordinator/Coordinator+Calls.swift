import SwitchboardCore

typealias CallReport = AttemptStateMachine.CallReport

/// The driver's two actions that take time: a slot, and a call made with the strategy the machine chose.
extension Coordinator {
    /// Takes a slot on `id`: a free one without an async call; otherwise waits in the load balancer's queue.
    nonisolated(nonsending) func takeSlot(_ id: ProviderID, priority: Priority,
                                          run: inout AttemptRun) async -> AttemptStateMachine.Action {
        if let free = loadBalancer.tryAcquire(id) {
            run.lease = free
            return run.machine.admitted(queueWait: free.queueWait)
        }
        run.callStart = nil
        do {
            let held = try await loadBalancer.acquire(id, priority: priority)
            run.lease = held
            return run.machine.admitted(queueWait: held.queueWait)
        } catch {
            return run.machine.slotUnavailable(error, now: clock.now())
        }
    }

    /// Makes the planned call on the slot just taken, alone or hedged, gives the slot back, records
    /// the outcome and hands it to the machine.
    nonisolated(nonsending) func call(_ plan: AttemptStateMachine.CallPlan, _ request: GenerationRequest, analysis: RequestAnalysis,
                                      run: inout AttemptRun, events: EventSink?) async -> AttemptStateMachine.Action {
        guard let held = run.lease, let provider = state.withLock({ $0.registry[plan.provider]?.provider }) else {
            // The provider left the registry while this request waited for its slot.
            if let held = run.lease { await loadBalancer.release(held); run.lease = nil }
            return run.machine.skipped(.unavailable, now: clock.now())
        }
        run.lease = nil
        for event in plan.events {
            events?.yield(event)
            if case .fallback(let from, let to, _) = event { await metrics.recordFallback(from: from, to: to); run.callStart = nil }
        }
        var callRequest = request
        if let prefix = plan.answerPrefix {
            // The continuation gets what is left of the token budget.
            callRequest.answerPrefix = prefix
            callRequest.maxTokens = max(1, request.maxTokens.saturatingAdd(-run.machine.deliveredTokens))
        }
        let providerRequest = ProviderRequest(request: callRequest, analysis: analysis, attempt: plan.attempt,
                                              timeout: run.machine.deadline.map { $0 - clock.now() })
        var report: CallReport
        if case .hedged(let candidate) = plan.strategy, let hedge = await hedgeTarget(candidate, primary: provider, run: run) {
            report = await callHedged(provider, providerRequest, lease: held, isFallback: plan.isFallback, hedge: hedge,
                                      run: &run, events: events)
        } else {
            report = await callProvider(provider, providerRequest, deadline: run.machine.deadline, timerClock: run.timerClock,
                                        events: events, started: run.callStart)
            report.redactFailure(by: provider)
            await loadBalancer.release(held, at: report.now)
            record(report, provider: plan.provider, queueWait: held.queueWait, isFallback: plan.isFallback)
        }
        report.callerCancelled = Task.isCancelled
        return state.withLock { state in run.machine.callFinished(report, budget: &state.retryBudget, random: &state.random) }
    }

    /// Feeds a finished call to the breaker, the estimate and the metrics. The metrics get it fire and
    /// forget (`submit`, no hop); any later read of them includes it.
    nonisolated func record(_ report: CallReport, provider: ProviderID, queueWait: Duration, isFallback: Bool) {
        let error = report.error
        state.withLock {
            $0.registry.recordOutcome(provider, error: error, ttft: report.timeToFirstToken, duration: report.duration,
                                      tokens: report.tokens, at: report.now)
        }
        let callOutcome: CallRecord.Outcome = switch error {
        case nil: .success
        case .cancelled?: .cancelled
        case let error?: .failure(error)
        }
        metrics.submit(CallRecord(provider: provider, outcome: callOutcome, latency: report.duration,
                                  timeToFirstToken: report.timeToFirstToken, completionTokens: report.tokens,
                                  queueWait: queueWait, isFallback: isFallback))
    }
}

extension AttemptStateMachine.CallReport {
    /// Passes a failure's messages through the provider's secret redactor, before the failure is
    /// recorded (metrics, audit) or reported (events, errors). No redactor, no cost.
    mutating func redactFailure(by provider: any Provider) {
        guard case .failure(let error) = result, let redactor = provider.secretRedactor else { return }
        result = .failure(error.redacted(by: redactor))
    }
}
