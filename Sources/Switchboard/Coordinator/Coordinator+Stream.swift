import SwitchboardCore

extension Coordinator {
    /// Answers `request` as a stream of events (what `streamResponse` follows): `analyzed` → `providerChosen` → `token`* →
    /// ((`fallback` | `resumed`) → `providerChosen` → `token`*)* → exactly one `completed` or `failed`,
    /// then the stream ends (`hedged` where a hedge started). A cache hit yields `analyzed`, the cached
    /// text as one `token`, then `completed`. Ending the iteration early (a `break`, or cancelling the
    /// iterating task) cancels the request, counted as cancelled.
    ///
    /// A failure after tokens reached the caller is resumed on the same or the next eligible provider,
    /// which continues the text (`resumed`); past `maxResumes` it is final (`failedMidStream`). The
    /// buffer holds at most the request's events, which are bounded by `maxTokens` and the attempt cap.
    package nonisolated func stream(_ request: GenerationRequest) -> SwitchboardEventStream {
        SwitchboardEventStream { continuation in
            // Analyzed in this task before it enters the coordinator (no hop, in parallel with others).
            let analysis = Self.validate(request) == nil ? self.analyze(request) : nil
            await self.run(request, analysis: analysis, events: EventSink(continuation: continuation))
        }
    }

    private nonisolated(nonsending) func run(_ request: GenerationRequest, analysis: RequestAnalysis?, events: EventSink) async {
        state.withLock { $0.counts.accepted += 1 }
        let result = await execute(request, events: events, analysis: analysis)
        settle(result)
        switch result {
        case .success(let response): events.yield(.completed(response))
        case .failure(let error): events.yield(.failed(error))
        }
        events.continuation.finish()
    }
}
