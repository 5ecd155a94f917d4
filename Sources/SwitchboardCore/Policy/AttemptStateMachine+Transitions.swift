extension AttemptStateMachine {
    package mutating func start(now: Duration) -> Action { nextCandidate(now: now) }

    /// The caller's task was cancelled (or a slot wait or sleep was interrupted by it).
    package mutating func cancelled() -> Action { .finish(.failure(.cancelled)) }

    /// The current provider cannot be tried (its breaker is open, it left the registry, or the
    /// dispatch-time privacy check refused it).
    package mutating func skipped(_ reason: Ineligibility.Reason, now: Duration) -> Action {
        if let id = currentProvider { skipped.append(Ineligibility(provider: id, reason: reason)) }
        advance()
        return nextCandidate(now: now)
    }

    /// What the registry holds for the current provider at dispatch: its place (nil when it left);
    /// `cancelled` when the caller's task was. The privacy rule is checked again on the provider as
    /// registered now (one registered again since ranking may run elsewhere): defence in depth, a
    /// private request never leaves the device whatever ranked it.
    package mutating func located(at locality: ProviderLocality?, cancelled: Bool, now: Duration) -> Action {
        guard let id = currentProvider else { return .finish(.failure(exhausted())) }
        guard let locality else { return skipped(.unavailable, now: now) }
        guard privacy.mayDispatch(level, to: locality) else { return skipped(.privacy, now: now) }
        if cancelled { return self.cancelled() }
        return .admit(id)
    }

    /// The current provider's breaker answered (`CircuitBreaker.admit`): an open one is skipped; a
    /// half-open one's probe is remembered, to be freed if no slot can be had.
    package mutating func breakerAnswered(_ admission: CircuitBreaker.Admission, now: Duration) -> Action {
        guard let id = currentProvider else { return .finish(.failure(exhausted())) }
        if admission == .rejected { return skipped(.circuitOpen, now: now) }
        holdsProbe = admission == .probe
        return .acquire(id)
    }

    /// The breaker update the machine asked for is done.
    package mutating func breakerUpdated() -> Action {
        defer { afterBreakerUpdate = nil }
        return afterBreakerUpdate ?? .finish(.failure(exhausted()))
    }

    /// No slot on the current provider: its queue is full, the wait timed out or was cancelled.
    package mutating func slotUnavailable(_ error: SwitchboardError, now: Duration) -> Action {
        let id = currentProvider
        let next: Action
        if error == .cancelled {
            next = cancelled()
        } else {
            slotError = error
            advance()
            next = nextCandidate(now: now)
        }
        guard holdsProbe, let id else { return next }
        holdsProbe = false
        return updateBreaker(id, .probeAbandoned, then: next)
    }

    /// A slot on the current provider is held: call it, hedged when the request wants that and
    /// another candidate may take the hedge.
    package mutating func admitted(queueWait: Duration) -> Action {
        guard let id = currentProvider else { return .finish(.failure(exhausted())) }
        holdsProbe = false  // the call's outcome gives the probe its verdict
        totalAttempts += 1
        attemptsOnCurrent += 1
        self.queueWait += queueWait
        let isFallback = firstProvider.map { $0 != id } ?? false
        if firstProvider == nil { firstProvider = id }
        var events: [SwitchboardEvent] = []
        let (prefix, carried) = carriedText(for: candidates[index])
        if case .restarted = carried {
            // Nothing of the answer fits here: it starts over, and the old text is no longer part of it.
            delivered = ""
            deliveredTokens = 0
        }
        if let handover = pending {
            if handover.isResume {
                events.append(.resumed(from: handover.from, to: id, reason: handover.reason, carried: carried))
            } else if handover.from != id {
                events.append(.fallback(from: handover.from, to: id, reason: handover.reason))
            }
            pending = nil
        }
        // Nobody reads `providerChosen` without a stream; leaving it out spares `respond` an allocation.
        if streaming { events.append(.providerChosen(id, attempt: totalAttempts)) }
        audit.append(RoutingAuditRecord.Attempt(provider: id, onDevice: candidates[index].isOnDevice))
        let strategy: CallStrategy = hedging ? hedgeCandidate().map { .hedged(by: $0) } ?? .single : .single
        return .call(CallPlan(provider: id, attempt: totalAttempts, answerPrefix: prefix,
                              events: events, isFallback: isFallback, strategy: strategy))
    }

    /// The call on the current provider ended. A success finishes the request with its response. A
    /// failure that asks for a long pause (`RetryPolicy.cooldown(after:)`) cools the provider's breaker
    /// down first. A failure after text reached the caller is resumed (on the same provider after a
    /// backoff, which needs room in the retry budget, or on the next one, which is charged to it) while
    /// `maxResumes` allows; otherwise the retry policy decides as for any failure.
    package mutating func callFinished(_ report: CallReport, budget: inout RetryBudget,
                                      random: inout SeededRandom) -> Action {
        guard let id = currentProvider else { return .finish(.failure(exhausted())) }
        if streaming, firstTokenAt == nil { firstTokenAt = report.firstTokenAt }
        let error: ProviderError
        switch report.result {
        case .success(let reason): return .finish(.success(response(report, reason: reason, provider: id)))
        case .failure(let failure): error = failure
        }
        let next = report.callerCancelled ? cancelled() : afterFailure(error, report: report, budget: &budget, random: &random)
        guard let cooldown = retry.cooldown(after: error) else { return next }
        // A long Retry-After benches the provider for that long; the request moves on now.
        return updateBreaker(id, .coolDown(until: report.now + cooldown), then: next)
    }

    private mutating func afterFailure(_ error: ProviderError, report: CallReport, budget: inout RetryBudget,
                                       random: inout SeededRandom) -> Action {
        guard let id = currentProvider else { return .finish(.failure(exhausted())) }
        let failure = AttemptFailure(provider: id, error: error)
        failures.append(failure)
        if !audit.isEmpty { audit[audit.count - 1].failure = error.auditKind }
        if error == .cancelled { return cancelled() }
        if streaming && report.tokens > 0 {
            delivered += report.text
            deliveredTokens = deliveredTokens.saturatingAdd(report.tokens)
        }
        let isResume = !delivered.isEmpty
        let context = FailureContext(error: error, attemptsOnProvider: attemptsOnCurrent, totalAttempts: totalAttempts,
                                     tokensDelivered: false, now: report.now, deadline: deadline,
                                     budgetAllowsRetry: budget.canRetry(at: report.now))
        switch retry.decide(context, random: &random) {
        case .retry(let delay):
            _ = budget.withdraw(at: report.now)
            if isResume {
                guard resumes < maxResumes else { return .finish(.failure(.failedMidStream(failure))) }
                resumes += 1
            }
            pending = Handover(from: id, reason: error, isResume: isResume)
            return .retry(after: delay)
        case .fallback(let minimum):
            if isResume {
                guard resumes < maxResumes else { return .finish(.failure(.failedMidStream(failure))) }
                // Charged, never refused: like a fallback it adds no load to the failed provider.
                budget.charge(at: report.now)
                resumes += 1
            }
            // The claim is a hint: it rules out the provider that made it (we move past it) and others
            // only as far as this request could really need that much.
            if let minimum { minimumContext = max(minimumContext ?? 0, believedMinimumContext(claimed: minimum)) }
            pending = Handover(from: id, reason: error, isResume: isResume)
            advance()
            return nextCandidate(now: report.now)
        case .fail(.cancelled):
            return cancelled()
        case .fail(.deadline):
            return .finish(.failure(.deadlineExceeded))
        case .fail:
            return .finish(.failure(isResume ? .failedMidStream(failure) : .allProvidersFailed(failures)))
        }
    }

    /// The request's one response, from the call that finished it and what came before: resumed
    /// prefixes, earlier attempts, queue waits, the first token the caller saw.
    private func response(_ report: CallReport, reason: FinishReason, provider id: ProviderID) -> GenerationResponse {
        var usage = report.usage ?? TokenUsage(promptTokens: size.estimatedPromptTokens,
                                               completionTokens: report.tokens.saturatingAdd(deliveredTokens))
        if report.usage != nil, deliveredTokens > 0 { usage.completionTokens = usage.completionTokens.saturatingAdd(deliveredTokens) }
        let firstToken = firstTokenAt ?? report.firstTokenAt
        let timings = ResponseTimings(queueWait: queueWait, timeToFirstToken: firstToken.map { $0 - start }, total: report.now - start)
        var response = GenerationResponse(text: delivered + report.text, providerID: id,
                                          fallbackFrom: firstProvider == id ? nil : firstProvider,
                                          attempts: totalAttempts, usage: usage, timings: timings, privacy: level,
                                          finishReason: reason, resumes: resumes, hedges: hedges)
        response.toolCalls = report.toolCalls
        return response
    }

    private mutating func updateBreaker(_ id: ProviderID, _ update: CircuitBreaker.Update, then next: Action) -> Action {
        afterBreakerUpdate = next
        return .updateBreaker(id, update)
    }

    /// A retry's backoff is over: try the same provider again.
    package mutating func wokeUp(now: Duration) -> Action { nextCandidate(now: now) }

    // MARK: - Internals

    private mutating func advance() {
        index += 1
        attemptsOnCurrent = 0
    }

    /// The next provider worth a slot, skipping those the request cannot use.
    private mutating func nextCandidate(now: Duration) -> Action {
        while true {
            if let deadline, now >= deadline { return .finish(.failure(.deadlineExceeded)) }
            guard index < candidates.count else { return .finish(.failure(exhausted())) }
            let candidate = candidates[index]
            if let minimum = minimumContext, candidate.maxContextTokens <= minimum {
                skipped.append(Ineligibility(provider: candidate.id, reason: .contextTooSmall))
            } else if !privacy.mayDispatch(level, to: candidate.locality) {
                // Whatever ranked this provider, a private request never leaves the device.
                skipped.append(Ineligibility(provider: candidate.id, reason: .privacy))
            } else {
                return .check(candidate.id)
            }
            advance()
        }
    }

    /// The error once every candidate has been tried or skipped.
    private func exhausted() -> SwitchboardError {
        if let last = failures.last, !delivered.isEmpty { return .failedMidStream(last) }
        if !failures.isEmpty { return .allProvidersFailed(failures) }
        if let slotError { return slotError }
        return .noEligibleProvider(skipped)
    }
}
