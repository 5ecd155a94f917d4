import SwitchboardCore

extension Coordinator {
    /// Answers `request` as a stream of events: `analyzed` → `providerChosen` → `token`* →
    /// (`fallback` → `providerChosen` → `token`*)* → exactly one `completed` or `failed`, then the
    /// stream ends. A cache hit yields `analyzed`, the cached text as one `token`, then `completed`.
    /// Ending the iteration early cancels the request (counted as cancelled).
    ///
    /// Once a token has been yielded, a failure is final (`failedMidStream`): the caller has seen the
    /// text, so a retry would repeat it. The buffer holds at most the request's events, which are
    /// bounded by `maxTokens` and the attempt cap.
    public nonisolated func stream(_ request: GenerationRequest) -> AsyncStream<SwitchboardEvent> {
        let (stream, continuation) = AsyncStream<SwitchboardEvent>.makeStream()
        let task = Task {
            // Analyzed in this task before it enters the coordinator (no hop, in parallel with others).
            let analysis = Self.validate(request) == nil ? self.analyze(request) : nil
            await self.run(request, analysis: analysis, events: EventSink(continuation: continuation))
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func run(_ request: GenerationRequest, analysis: RequestAnalysis?, events: EventSink) async {
        counts.accepted += 1
        let result = await execute(request, events: events, analysis: analysis)
        settle(result)
        switch result {
        case .success(let response): events.yield(.completed(response))
        case .failure(let error): events.yield(.failed(error))
        }
        events.continuation.finish()
    }
}
