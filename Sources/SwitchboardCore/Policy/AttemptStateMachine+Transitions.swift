extension AttemptStateMachine {
    public mutating func start(now: Duration) -> Action { nextAcquire(now: now) }

    /// The caller's task was cancelled (or a slot wait or sleep was interrupted by it).
    public mutating func cancelled() -> Action { .finish(.failure(.cancelled)) }

    /// The current provider cannot be tried (its breaker is open, it left the registry, or the
    /// dispatch-time privacy check refused it).
    public mutating func skipped(_ reason: Ineligibility.Reason, now: Duration) -> Action {
        if let id = currentProvider { skipped.append(Ineligibility(provider: id, reason: reason)) }
        advance()
        return nextAcquire(now: now)
    }

    /// No slot on the current provider: its queue is full or the wait timed out.
    public mutating func slotUnavailable(_ error: SwitchboardError, now: Duration) -> Action {
        if error == .cancelled { return cancelled() }
        slotError = error
        advance()
        return nextAcquire(now: now)
    }

    /// A slot on the current provider is held: call it.
    public mutating func admitted(queueWait: Duration) -> Action {
        guard let id = currentProvider else { return .finish(.failure(exhausted())) }
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
        return .call(CallPlan(provider: id, attempt: totalAttempts, answerPrefix: prefix,
                              events: events, isFallback: isFallback))
    }

    /// The call on the current provider ended. A failure after text reached the caller is resumed
    /// (on the same provider after a backoff, which needs room in the retry budget, or on the next
    /// one, which is charged to it) while `maxResumes` allows; otherwise the retry policy decides as
    /// for any failure.
    package mutating func callFinished(_ report: CallReport, budget: inout RetryBudget,
                                      random: inout SeededRandom) -> Action {
        guard let id = currentProvider else { return .finish(.failure(exhausted())) }
        let error: ProviderError
        switch report.result {
        case .success(let reason):
            var usage = report.usage
            if deliveredTokens > 0, var counted = usage {
                counted.completionTokens = counted.completionTokens.saturatingAdd(deliveredTokens)
                usage = counted
            }
            return .finish(.success(Success(provider: id, text: delivered + report.text, reason: reason, usage: usage)))
        case .failure(let failure):
            error = failure
        }
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
            return nextAcquire(now: report.now)
        case .fail(.cancelled):
            return cancelled()
        case .fail(.deadline):
            return .finish(.failure(.deadlineExceeded))
        case .fail:
            return .finish(.failure(isResume ? .failedMidStream(failure) : .allProvidersFailed(failures)))
        }
    }

    /// A retry's backoff is over: try the same provider again.
    public mutating func wokeUp(now: Duration) -> Action { nextAcquire(now: now) }

    // MARK: - Internals

    private mutating func advance() {
        index += 1
        attemptsOnCurrent = 0
    }

    /// The next provider worth a slot, skipping those the request cannot use.
    private mutating func nextAcquire(now: Duration) -> Action {
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
                return .acquire(candidate.id)
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
