// The only code that touches Apple's framework: it spells the plain values of this module as the
// framework's types and reads the framework's answers back into plain values. Compiled where the
// framework exists, and in the test target `SwitchboardFoundationModelsShellTests` against a stand-in
// of the same declarations (FOUNDATION_MODELS_STAND_IN), so Linux CI type-checks it.
#if canImport(FoundationModels)
import FoundationModels
#elseif FOUNDATION_MODELS_STAND_IN
import FoundationModelsStandIn
#endif
#if FOUNDATION_MODELS_STAND_IN
import SwitchboardFoundationModels
#endif
// Only the one type needed: SwitchboardCore's `GenerationSchema`, `GeneratedContent` and `Tool` share
// their names with the framework's, and in this file the names mean the framework's.
import struct SwitchboardCore.ProviderID

#if canImport(FoundationModels) || FOUNDATION_MODELS_STAND_IN

@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
extension FoundationModelsProvider {
    /// The device's system model (`SystemLanguageModel.default`).
    public init(id: ProviderID = "apple-system-model") {
        self.init(id: id, model: SystemLanguageModelBackend(model: .default))
    }
}

/// `SystemModel` over `SystemLanguageModel` and one `LanguageModelSession` per call.
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
package struct SystemLanguageModelBackend: SystemModel {
    let model: SystemLanguageModel

    package init(model: SystemLanguageModel) { self.model = model }

    package func availability() async -> SystemModelAvailability {
        switch model.availability {
        case .available: .available
        case .unavailable(.deviceNotEligible): .deviceNotEligible
        case .unavailable(.appleIntelligenceNotEnabled): .appleIntelligenceNotEnabled
        case .unavailable(.modelNotReady): .modelNotReady
        @unknown default: .unavailableOther
        }
    }

    package var contextSize: Int? { model.contextSize }

    package var supportedLanguages: Set<String>? {
        Set(model.supportedLanguages.compactMap { $0.languageCode?.identifier })
    }

    package func stream(_ request: SystemModelRequest) -> AsyncThrowingStream<SystemModelEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await Self.respond(request, model: model) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: Self.failure(error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func respond(_ request: SystemModelRequest, model: SystemLanguageModel,
                        yield: (SystemModelEvent) -> Void) async throws {
        var tools: [any Tool] = []
        for (offset, tool) in request.tools.enumerated() {
            tools.append(CapturingTool(name: tool.name, description: tool.description,
                                       parameters: try generationSchema(tool.parameters),
                                       sequence: request.firstToolCallSequence + offset))
        }
        let session = Self.session(request.conversation, model: model, tools: tools)
        let options = GenerationOptions(sampling: nil, temperature: request.temperature,
                                        maximumResponseTokens: request.maximumResponseTokens)
        let text = request.conversation.prompt
        let prompt = Prompt { text }
        if let schema = request.schema {
            let stream = session.streamResponse(to: prompt, schema: try generationSchema(schema),
                                                includeSchemaInPrompt: true, options: options)
            for try await snapshot in stream { yield(.snapshot(snapshot.rawContent.jsonString)) }
        } else {
            let stream = session.streamResponse(to: prompt, options: options)
            for try await snapshot in stream { yield(.snapshot(snapshot.content)) }
        }
    }

    /// A session that holds the conversation so far as a framework `Transcript` (instructions with the
    /// tools' definitions, then the earlier turns); the prompt is sent to it next. When a turn cannot be
    /// a transcript entry (earlier tool-call arguments that are not JSON), the turns are written out
    /// after the instructions instead, so nothing of the conversation is dropped.
    static func session(_ conversation: SystemModelConversation, model: SystemLanguageModel, tools: [any Tool]) -> LanguageModelSession {
        if let transcript = transcript(conversation, tools: tools) {
            return LanguageModelSession(model: model, tools: tools, transcript: transcript)
        }
        let instructions = conversation.instructionsWithTranscript ?? ""
        return LanguageModelSession(model: model, tools: tools) { instructions }
    }

    static func transcript(_ conversation: SystemModelConversation, tools: [any Tool]) -> Transcript? {
        func text(_ content: String) -> [Transcript.Segment] { [.text(Transcript.TextSegment(content: content))] }
        var entries: [Transcript.Entry] = [.instructions(Transcript.Instructions(
            segments: text(conversation.instructions ?? ""), toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) }))]
        for (index, turn) in conversation.transcript.enumerated() {
            switch turn {
            case .prompt(let content): entries.append(.prompt(Transcript.Prompt(segments: text(content))))
            case .response(let content): entries.append(.response(Transcript.Response(assetIDs: [], segments: text(content))))
            case .toolCalls(let calls):
                var converted: [Transcript.ToolCall] = []
                for call in calls {
                    guard let arguments = try? GeneratedContent(json: call.arguments) else { return nil }
                    converted.append(Transcript.ToolCall(id: call.id, toolName: call.name, arguments: arguments))
                }
                entries.append(.toolCalls(Transcript.ToolCalls(converted)))
            case .toolOutput(let name, let callID, let output, let isError):
                entries.append(.toolOutput(Transcript.ToolOutput(id: callID ?? "output-\(index)", toolName: name,
                                                                 segments: text(isError ? "error: " + output : output))))
            }
        }
        return Transcript(entries: entries)
    }

    /// `GenerationSchema(root:dependencies:)` of the translated schema.
    static func generationSchema(_ set: DynamicSchemaSet) throws -> GenerationSchema {
        try GenerationSchema(root: try dynamic(set.root), dependencies: try set.dependencies.map(dynamic))
    }

    static func dynamic(_ schema: DynamicSchema) throws -> DynamicGenerationSchema {
        switch schema {
        case .object(let name, let description, let properties):
            return DynamicGenerationSchema(name: name, description: description, properties: try properties.map {
                DynamicGenerationSchema.Property(name: $0.name, description: $0.description, schema: try dynamic($0.schema),
                                                 isOptional: $0.isOptional)
            })
        case .anyOf(let name, let description, let choices):
            return DynamicGenerationSchema(name: name, description: description, anyOf: try choices.map(dynamic))
        case .stringChoices(let name, let description, let choices):
            return DynamicGenerationSchema(name: name, description: description, anyOf: choices)
        case .array(let items, let minimum, let maximum):
            return DynamicGenerationSchema(arrayOf: try dynamic(items), minimumElements: minimum, maximumElements: maximum)
        case .string(let pattern):
            // A pattern Swift's Regex does not parse is the framework's unsupported guide: the same
            // typed refusal, so the router falls back.
            guard let pattern else { return DynamicGenerationSchema(type: String.self) }
            guard let regex = try? Regex(pattern) else { throw SystemModelFailure.unsupportedGuide }
            return DynamicGenerationSchema(type: String.self, guides: [.pattern(regex)])
        case .integer(let minimum, let maximum):
            var guides: [GenerationGuide<Int>] = []
            if let minimum { guides.append(.minimum(minimum)) }
            if let maximum { guides.append(.maximum(maximum)) }
            return DynamicGenerationSchema(type: Int.self, guides: guides)
        case .number(let minimum, let maximum):
            var guides: [GenerationGuide<Double>] = []
            if let minimum { guides.append(.minimum(minimum)) }
            if let maximum { guides.append(.maximum(maximum)) }
            return DynamicGenerationSchema(type: Double.self, guides: guides)
        case .boolean:
            return DynamicGenerationSchema(type: Bool.self)
        case .reference(let name):
            return DynamicGenerationSchema(referenceTo: name)
        }
    }

    /// The framework's error as a `SystemModelFailure` (or the captured tool call, or cancellation).
    /// Cases are matched without their payloads, which differ between OS versions.
    static func failure(_ error: any Error) -> any Error {
        if error is CancellationError { return error }
        if let failure = error as? SystemModelFailure { return failure }
        if let toolError = error as? LanguageModelSession.ToolCallError {
            if let captured = toolError.underlyingError as? ToolCallCaptured { return captured }
            return SystemModelFailure.unknown(typeName: "ToolCallError")
        }
        guard let generation = error as? LanguageModelSession.GenerationError else {
            return SystemModelFailure.unknown(typeName: String(describing: type(of: error)))
        }
        switch generation {
        case .exceededContextWindowSize: return SystemModelFailure.contextWindowExceeded(contextSize: nil, tokenCount: nil)
        case .assetsUnavailable: return SystemModelFailure.assetsUnavailable
        case .guardrailViolation: return SystemModelFailure.guardrailViolation
        case .unsupportedGuide: return SystemModelFailure.unsupportedGuide
        case .unsupportedLanguageOrLocale: return SystemModelFailure.unsupportedLanguageOrLocale(language: nil)
        case .decodingFailure: return SystemModelFailure.decodingFailure
        case .rateLimited: return SystemModelFailure.rateLimited
        case .concurrentRequests: return SystemModelFailure.concurrentRequests
        case .refusal: return SystemModelFailure.refusal
        @unknown default: return SystemModelFailure.unknown(typeName: "GenerationError")
        }
    }
}

/// A request's tool as the framework calls it: dynamic arguments (`GeneratedContent`), and a `call`
/// that captures the call instead of running anything (see `ToolCallCaptured`).
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
struct CapturingTool: Tool {
    let name: String
    let description: String
    let parameters: GenerationSchema
    let sequence: Int

    func call(arguments: GeneratedContent) async throws -> String {
        throw ToolCallCaptured(name: name, argumentsJSON: arguments.jsonString, sequence: sequence)
    }
}

#endif
