import SwitchboardCore

extension Coordinator {
    nonisolated func response(_ success: AttemptStateMachine.Success, outcome: CallOutcome, run: AttemptRun,
                  analysis: RequestAnalysis) -> GenerationResponse {
        let machine = run.machine
        let usage = success.usage ?? TokenUsage(promptTokens: analysis.estimatedPromptTokens,
                                                completionTokens: outcome.tokens.saturatingAdd(machine.deliveredTokens))
        let firstToken = run.firstTokenAt ?? outcome.firstTokenAt
        let timings = ResponseTimings(queueWait: machine.queueWait, timeToFirstToken: firstToken.map { $0 - run.start },
                                      total: outcome.ended - run.start)
        let first = machine.firstProvider
        var response = GenerationResponse(text: success.text, providerID: success.provider,
                                          fallbackFrom: first == success.provider ? nil : first,
                                          attempts: machine.totalAttempts, usage: usage, timings: timings,
                                          privacy: analysis.privacy, finishReason: success.reason,
                                          resumes: machine.resumes, hedges: run.hedges)
        response.toolCalls = outcome.toolCalls
        return response
    }

    /// Feeds a finished call to the breaker, the estimate and the metrics. The metrics get it fire and
    /// forget (`submit`, no hop); any later read of them includes it.
    nonisolated func record(_ outcome: CallOutcome, provider: ProviderID, queueWait: Duration, isFallback: Bool) {
        let error = outcome.error
        state.withLock {
            $0.registry.recordOutcome(provider, error: error, ttft: outcome.timeToFirstToken, duration: outcome.duration,
                                      tokens: outcome.tokens, at: outcome.ended)
        }
        let callOutcome: CallRecord.Outcome = switch error {
        case nil: .success
        case .cancelled?: .cancelled
        case let error?: .failure(error)
        }
        metrics.submit(CallRecord(provider: provider, outcome: callOutcome, latency: outcome.duration,
                                   timeToFirstToken: outcome.timeToFirstToken, completionTokens: outcome.tokens,
                                   queueWait: queueWait, isFallback: isFallback))
    }
}
