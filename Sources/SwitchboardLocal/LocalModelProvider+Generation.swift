import SwitchboardCore

extension LocalModelProvider {
    public func generate(_ request: ProviderRequest) -> ProviderEventStream {
        // At most maxTokens pieces, an engine's held-back tail, a stop filter's flush and `finished` are
        // yielded, so this bounded buffer never drops an event.
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: ProviderEvent.self, throwing: (any Error).self,
            bufferingPolicy: .bufferingOldest(max(request.request.maxTokens, 0).saturatingAdd(4)))
        let task = Task { await self.serve(request.request, into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return ProviderEventStream(stream)
    }

    /// One request: wait for the model, build the prompt, wait for the engine, stream, clean up.
    nonisolated func serve(_ request: GenerationRequest,
                           into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) async {
        let engine: any LocalInferenceEngine
        do { engine = try await admit() } catch {
            output.finish(throwing: Self.providerError(error))
            return
        }
        let outcome: Result<TokenUsage, ProviderError>
        do {
            let builder = PromptBuilder(format: configuration.promptFormat, contextLength: engine.contextLength,
                                        counter: TokenCounter { engine.tokenCount(of: $0, parseSpecial: $1) })
            let prompt = try builder.build(request)
            let schema = try request.output.generationSchema()
            try await acquireSlot(limit: engine.concurrency)
            outcome = await Self.stream(engine, prompt: prompt, request: request, schema: schema, into: output)
            await releaseSlot()
        } catch {
            outcome = .failure(Self.providerError(error))
        }
        await requestFinished(outcome)
        switch outcome {
        case .success: output.finish()
        case .failure(let error): output.finish(throwing: error)
        }
    }

    /// Counts the request in, loading the model and waiting for it when needed.
    func admit() async throws -> any LocalInferenceEngine {
        if let deviceState {
            let level = await deviceState.current().memoryPressure
            if level != lifecycle.memoryPressure { apply(.memoryPressure(level)) }
        }
        let actions = apply(.requestStarted)
        for action in actions {
            if case .reject(let reason) = action { throw ProviderError.unavailable(reason) }
        }
        if actions.contains(.wait) {
            let ticket = takeTicket()
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    loadWaiters.append((ticket, continuation))
                }
            } onCancel: {
                Task { await self.abandonLoadWait(ticket) }
            }
        }
        guard let engine else {
            // Unreachable while the lifecycle holds the model for active requests; stay consistent anyway.
            apply(.requestFinished)
            throw ProviderError.unavailable("the on-device model is not loaded")
        }
        return engine
    }

    private func abandonLoadWait(_ ticket: UInt64) {
        guard let index = loadWaiters.firstIndex(where: { $0.ticket == ticket }) else { return }
        let waiter = loadWaiters.remove(at: index)
        apply(.requestAbandoned)
        waiter.continuation.resume(throwing: CancellationError())
    }

    /// The engine runs `limit` generations at once (its batch size); waiters are served in arrival order.
    func acquireSlot(limit: Int) async throws {
        guard slotsInUse >= max(1, limit) || !slotWaiters.isEmpty else { slotsInUse += 1; return }
        let ticket = takeTicket()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                slotWaiters.append((ticket, continuation))
                statistics.peakQueueLength = max(statistics.peakQueueLength, slotWaiters.count)
            }
        } onCancel: {
            Task { await self.abandonSlotWait(ticket) }
        }
    }

    func releaseSlot() {
        if slotWaiters.isEmpty { slotsInUse -= 1; return }
        // Hand the slot straight to the next waiter: it stays in use.
        slotWaiters.removeFirst().continuation.resume()
    }

    private func abandonSlotWait(_ ticket: UInt64) {
        guard let index = slotWaiters.firstIndex(where: { $0.ticket == ticket }) else { return }
        slotWaiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    private func requestFinished(_ outcome: Result<TokenUsage, ProviderError>) {
        switch outcome {
        case .success(let usage):
            statistics.generations += 1
            statistics.promptTokens += usage.promptTokens
            statistics.completionTokens += usage.completionTokens
        case .failure(.cancelled): statistics.cancelledGenerations += 1
        case .failure: statistics.failedGenerations += 1
        }
        apply(.requestFinished)
    }

    /// Streams the engine's tokens through the stop-sequence filter. Returns the usage reported in
    /// `finished`, which has been yielded; on failure nothing more is yielded.
    static func stream(_ engine: any LocalInferenceEngine, prompt: BuiltPrompt, request: GenerationRequest,
                       schema: GenerationSchema? = nil, into output: AsyncThrowingStream<ProviderEvent, any Error>.Continuation) async
        -> Result<TokenUsage, ProviderError> {
        // A stop sequence would cut a JSON answer short: structured requests end with their document.
        var filter = StopSequenceFilter(schema == nil ? request.sampling.stopSequences : [])
        var generated = 0
        do {
            for try await event in engine.generate(prompt, maxTokens: request.maxTokens, sampling: request.sampling, schema: schema) {
                switch event {
                case .token(let text):
                    generated += 1
                    let visible = filter.feed(text)
                    if !visible.isEmpty { output.yield(.token(visible)) }
                    if filter.stopped {
                        let usage = TokenUsage(promptTokens: prompt.tokenCount, completionTokens: generated)
                        output.yield(.finished(.stop, usage))
                        return .success(usage)
                    }
                case .finished(let reason, let usage):
                    let rest = filter.flush()
                    if !rest.isEmpty { output.yield(.token(rest)) }
                    output.yield(.finished(reason, usage))
                    return .success(usage)
                }
            }
        } catch {
            return .failure(Task.isCancelled ? .cancelled : providerError(error))
        }
        if Task.isCancelled { return .failure(.cancelled) }
        return .failure(.malformedResponse("the on-device engine ended a generation without finishing it"))
    }
}
