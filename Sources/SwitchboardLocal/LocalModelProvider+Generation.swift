import SwitchboardCore
import SwitchboardInference

extension LocalModelProvider {
    /// One stream from the engine to the caller: the engine yields `ProviderEvent`s into it from its
    /// batch thread (mapped once, in `LocalEngine`), and the task here only admits the request (waiting
    /// for a load), builds the prompt, and finishes the stream once the engine is done. Requests beyond
    /// the engine's batch size wait in the engine's batch loop, the path's one admission queue.
    public func generate(_ request: ProviderRequest) -> ProviderEventStream {
        // At most maxTokens pieces, an engine's held-back tail and `finished` are yielded, so this
        // bounded buffer never drops an event.
        let (stream, output) = AsyncThrowingStream.makeStream(
            of: ProviderEvent.self, throwing: (any Error).self,
            bufferingPolicy: .bufferingOldest(max(request.request.maxTokens, 0).saturatingAdd(4)))
        let cancellation = CancellationFlag()
        let task = Task { await self.serve(request.request, cancellation: cancellation, into: output) }
        output.onTermination = { _ in
            cancellation.cancel()
            task.cancel()
        }
        return ProviderEventStream(stream)
    }

    /// One request: wait for the model, build the prompt, let the engine generate into `output`, count it.
    nonisolated func serve(_ request: GenerationRequest, cancellation: CancellationFlag,
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
            outcome = .success(try await engine.generate(prompt, owner: request.prefixOwner, maxTokens: request.maxTokens,
                                                         sampling: request.sampling, schema: schema, cancellation: cancellation, into: output))
        } catch {
            outcome = .failure(cancellation.isCancelled || Task.isCancelled ? .cancelled : Self.providerError(error))
        }
        await requestFinished(outcome)
        switch outcome {
        case .success: output.finish()
        case .failure(let error): output.finish(throwing: error)
        }
    }

    /// Counts the request in, loading the model and waiting for it when needed. Every waiter awaits the
    /// one load task (`loading`); the lifecycle has already counted it in when that load succeeded.
    func admit() async throws -> any LocalInferenceEngine {
        if let deviceState {
            let level = await deviceState.current().memoryPressure
            if level != lifecycle.memoryPressure { apply(.memoryPressure(level)) }
        }
        let actions = apply(.requestStarted)
        for action in actions {
            if case .reject(let reason) = action { throw ProviderError.unavailable(reason) }
        }
        if actions.contains(.wait), let loading {
            // A cancelled waiter still waits for the load (it runs for everyone, and ends), then leaves.
            if case .failure(let error) = await loading.value { throw ProviderError.unavailable(error.description) }
        }
        guard let engine else {
            // Unreachable while the lifecycle holds the model for active requests; stay consistent anyway.
            apply(.requestFinished)
            throw ProviderError.unavailable("the on-device model is not loaded")
        }
        if Task.isCancelled {
            apply(.requestFinished)
            throw CancellationError()
        }
        return engine
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
}

extension LocalModelProvider {
    /// Every failure leaves the provider as a `ProviderError`, classified for the router: a context that
    /// is too small is fallback-only, cancellation is final, a model that cannot load is unavailable.
    static func providerError(_ error: any Error) -> ProviderError {
        switch error {
        case let error as ProviderError: error
        case is CancellationError: .cancelled
        case let error as LocalModelError: .unavailable(error.description)
        case let error as InferenceError: providerError(error)
        default: ProviderError.unavailable("on-device engine failure: \(String(describing: error))")
        }
    }
}

extension LocalModelProvider {
    static func providerError(_ error: InferenceError) -> ProviderError {
        switch error {
        case .contextLengthExceeded(let limit, let requested): .contextLengthExceeded(limit: limit, requested: requested)
        // Too big for this engine's KV memory: another eligible provider may take it.
        case .emptyPrompt, .invalidToken, .kvBudgetExceeded: .invalidRequest(error.description)
        case .cancelled: .cancelled
        case .gguf, .unsupportedArchitecture, .missingTensor, .unsupportedTensor, .tokenizer, .batchTooLarge: .unavailable(error.description)
        // Too small a budget is the caller's to fix; a schema this engine cannot enforce may suit another provider.
        case .constraint(.budgetTooSmall): .invalidRequest(error.description)
        case .constraint: .unavailable(error.description)
        }
    }
}
