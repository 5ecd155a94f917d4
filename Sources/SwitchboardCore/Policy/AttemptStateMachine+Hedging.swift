extension AttemptStateMachine {
    /// The provider a hedge would go to beside the current one: the next candidate this request may
    /// use (privacy and context rules as for any attempt), or nil.
    package func hedgeCandidate() -> Candidate? {
        guard index + 1 < candidates.count else { return nil }
        for candidate in candidates[(index + 1)...] {
            if let minimum = minimumContext, candidate.maxContextTokens <= minimum { continue }
            guard privacy.mayDispatch(level, to: candidate.locality) else { continue }
            return candidate
        }
        return nil
    }

    /// Whether the hedge's provider, as registered when the hedge is due, may take the request: the
    /// dispatch-time privacy check of `located`, for the second call of a hedged strategy.
    package func mayHedge(at locality: ProviderLocality) -> Bool { privacy.mayDispatch(level, to: locality) }

    /// A hedge call to `id` was started beside the current call: it counts as an attempt.
    package mutating func hedgeStarted(_ id: ProviderID, queueWait: Duration) -> SwitchboardEvent {
        totalAttempts += 1
        hedges += 1
        self.queueWait += queueWait
        hedgeAudit = audit.count
        audit.append(RoutingAuditRecord.Attempt(provider: id, onDevice: candidates.first { $0.id == id }?.isOnDevice ?? false))
        return .hedged(primary: currentProvider ?? id, hedge: id)
    }

    /// The race is over. With `hedgeWon` the hedge's call is the request's call from here on (its
    /// outcome goes to `callFinished`), and the first call is recorded as having lost; otherwise the
    /// hedge is recorded as having lost, or failed with `hedgeError`.
    package mutating func hedgeFinished(hedge id: ProviderID, hedgeWon: Bool, hedgeError: ProviderError? = nil) {
        guard let hedgeIndex = hedgeAudit, hedgeIndex < audit.count else { return }
        hedgeAudit = nil
        if hedgeWon, let next = candidates.firstIndex(where: { $0.id == id }), next > index {
            if hedgeIndex > 0 { audit[hedgeIndex - 1].failure = "hedge_lost" }
            // The hedge's attempt becomes the current one, last in the audit as `callFinished` expects.
            audit.append(audit.remove(at: hedgeIndex))
            index = next
            attemptsOnCurrent = 1
        } else {
            audit[hedgeIndex].failure = hedgeError?.auditKind ?? "hedge_lost"
        }
    }
}
