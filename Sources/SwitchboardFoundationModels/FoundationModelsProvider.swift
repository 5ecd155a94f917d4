import SwitchboardCore

/// Apple's on-device system model (Foundation Models) as a Switchboard provider: on device,
/// structured output and tool calling, its context size from the OS where the OS reports it.
///
/// On an Apple platform with the framework, `init(id:)` (in `Shell/`) uses `SystemLanguageModel.default`;
/// everywhere the mapping below is the same code, tested against a scripted system model.
/// A struct: the state (the model, its sessions) is the framework's, and each call opens its own
/// session, so calls never meet on one session.
public struct FoundationModelsProvider: Provider {
    public let id: ProviderID
    public let capabilities: ProviderCapabilities
    let model: any SystemModel
    /// Apple documents the OS 26 model's context window as 4,096 tokens; used where the OS does not
    /// report one (before 26.4).
    package static let documentedContextSize = 4096

    package init(id: ProviderID, model: any SystemModel) {
        self.id = id
        self.model = model
        capabilities = ProviderCapabilities(
            isOnDevice: true, maxContextTokens: max(1, model.contextSize ?? Self.documentedContextSize),
            supportsStructuredOutput: true, followsInstructions: true, supportsToolCalling: true,
            expectedTimeToFirstToken: .milliseconds(300), expectedTokensPerSecond: 30)
    }

    public func availability() async -> ProviderAvailability {
        await model.availability().providerAvailability
    }

    public func generate(_ providerRequest: ProviderRequest) async -> ProviderEventStream {
        let call: SystemModelRequest
        switch await prepare(providerRequest) {
        case .success(let prepared): call = prepared
        case .failure(let error): return .failing(error)
        }
        let model = model
        let contextSize = capabilities.maxContextTokens
        let stream = AsyncThrowingStream<ProviderEvent, any Error> { continuation in
            let task = Task {
                do {
                    try await Self.run(call, on: model, contextSize: contextSize) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return ProviderEventStream(stream)
    }

    /// The call, or why this provider refuses it (each a `fallbackOnly` or `unavailable` error, so the
    /// router moves on): the model not ready now, a language it does not speak, a schema or tool it
    /// cannot express, a conversation it cannot take.
    package func prepare(_ providerRequest: ProviderRequest) async -> Result<SystemModelRequest, ProviderError> {
        let request = providerRequest.request
        let state = await model.availability()
        guard state == .available else {
            if case .unavailable(let reason) = state.providerAvailability { return .failure(.unavailable(reason)) }
            return .failure(.unavailable("the system model is not ready: it is still downloading"))
        }
        let language = providerRequest.analysis.language
        if let supported = model.supportedLanguages, language != "und", !supported.contains(language) {
            return .failure(SystemModelFailure.unsupportedLanguageOrLocale(language: language)
                .providerError(contextSize: capabilities.maxContextTokens))
        }
        do {
            let conversation = try SystemModelConversation(request)
            let tools = try SystemModelTool.tools(for: request)
            var schema: DynamicSchemaSet?
            if case .jsonSchema(let text) = request.output {
                do { schema = try DynamicSchemaSet(try GenerationSchema(jsonSchema: text)) } catch {
                    return .failure(.invalidRequest(error.description))
                }
            }
            let priorCalls = request.messages.reduce(0) { $0.saturatingAdd($1.toolCalls.count) }
            return .success(SystemModelRequest(
                conversation: conversation, schema: schema, tools: tools,
                // The framework takes 0...1; a NaN becomes the framework's default.
                temperature: request.sampling.temperature.isNaN ? nil : min(max(request.sampling.temperature, 0), 1),
                maximumResponseTokens: max(1, request.maxTokens),
                firstToolCallSequence: priorCalls))
        } catch {
            return .failure(error)
        }
    }

    /// Reads the model's stream into provider events. Text streams as deltas (`SnapshotDeltas`);
    /// structured content is sent once, whole, at the end: a partial object's JSON is re-rendered on
    /// every snapshot (closing brackets move), so it is not a prefix of the next one.
    /// Returns the events it yielded (for tests that read them directly).
    @discardableResult
    package static func run(_ call: SystemModelRequest, on model: any SystemModel, contextSize: Int,
                            yield: (ProviderEvent) -> Void) async throws(ProviderError) -> [ProviderEvent] {
        var yielded: [ProviderEvent] = []
        func send(_ event: ProviderEvent) { yielded.append(event); yield(event) }
        var deltas = SnapshotDeltas()
        var lastStructured: String?
        var usage: TokenUsage?
        do {
            for try await event in model.stream(call) {
                switch event {
                case .usage(let reported): usage = reported
                case .snapshot(let text):
                    if call.schema != nil { lastStructured = text; continue }
                    switch deltas.next(text) {
                    case .delta(let piece): if !piece.isEmpty { send(.token(piece)) }
                    case .rewrite(let sent, let divergesAt):
                        throw ProviderError.malformedResponse(
                            "the system model rewrote its answer at scalar \(divergesAt) of the \(sent) already sent")
                    }
                }
            }
        } catch let captured as ToolCallCaptured {
            if let text = lastStructured, !text.isEmpty { send(.token(text)) }
            send(.toolCall(captured.call))
            send(.finished(.toolCalls, usage))
            return yielded
        } catch let failure as SystemModelFailure {
            throw failure.providerError(contextSize: contextSize)
        } catch {
            throw ProviderError(error)
        }
        if let text = lastStructured { send(.token(text)) }
        send(.finished(.stop, usage))
        return yielded
    }
}
