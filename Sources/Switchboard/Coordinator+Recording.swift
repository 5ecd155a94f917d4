import SwitchboardCore

extension Coordinator {
    func response(_ outcome: CallOutcome, finish: CallOutcome.Finish, provider: ProviderID,
                  analysis: RequestAnalysis, run: AttemptRun) -> GenerationResponse {
        let usage = finish.usage ?? TokenUsage(promptTokens: analysis.estimatedPromptTokens, completionTokens: outcome.tokens)
        let firstToken = run.firstTokenAt ?? outcome.firstTokenAt
        let timings = ResponseTimings(queueWait: run.queueWait, timeToFirstToken: firstToken.map { $0 - run.start },
                                      total: outcome.ended - run.start)
        return GenerationResponse(text: outcome.text, providerID: provider,
                                  fallbackFrom: run.firstProvider == provider ? nil : run.firstProvider,
                                  attempts: run.totalAttempts, usage: usage, timings: timings,
                                  privacy: analysis.privacy, finishReason: finish.reason)
    }

    /// Feeds a finished call to the breaker, the estimate and the metrics. The metrics get it fire and
    /// forget (`submit`, no hop); any later read of them includes it. (Async only for its callers' sake.)
    func record(_ outcome: CallOutcome, provider: ProviderID, queueWait: Duration, isFallback: Bool) async {
        let error = outcome.error
        registry.recordOutcome(provider, error: error, ttft: outcome.timeToFirstToken, duration: outcome.duration,
                               tokens: outcome.tokens, at: outcome.ended)
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
