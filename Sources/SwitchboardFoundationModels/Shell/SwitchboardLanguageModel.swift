// Switchboard as a Foundation Models language model (OS 27): a `LanguageModelSession` made with
// `SwitchboardLanguageModel(coordinator:)` sends each request through the coordinator (routing, privacy,
// fallback, cache, metrics). Thin: the transcript is read into `ExecutorRequest` and the coordinator's
// events go back through `ExecutorOutput`, both plain and tested. Compiled where the OS 27 SDK's
// declarations exist (approximated by the Swift 6.3 compiler that ships with it) and against the
// stand-in on Linux.
#if canImport(FoundationModels) && compiler(>=6.3)
import FoundationModels
#elseif FOUNDATION_MODELS_STAND_IN
import FoundationModelsStandIn
#endif
#if FOUNDATION_MODELS_STAND_IN
import SwitchboardFoundationModels
#endif
import Foundation
import class Switchboard.Coordinator
// Only these: SwitchboardCore's `GenerationSchema`, `GeneratedContent` and `Tool` share their names with
// the framework's, and in this file the names mean the framework's.
import struct SwitchboardCore.ToolCall

#if (canImport(FoundationModels) && compiler(>=6.3)) || FOUNDATION_MODELS_STAND_IN

@available(macOS 27.0, iOS 27.0, visionOS 27.0, *)
public struct SwitchboardLanguageModel: LanguageModel {
    public typealias Executor = SwitchboardExecutor
    public let executorConfiguration: SwitchboardExecutor.Configuration
    /// What the coordinator's providers can do: tool calling and guided generation when one of them can.
    public let capabilities: LanguageModelCapabilities

    /// A model whose every request goes through `coordinator`. `toolCalling` and `guidedGeneration`
    /// declare what its registered providers can do (the framework refuses a request that needs a
    /// capability the model does not declare, before the executor runs).
    public init(coordinator: Coordinator, toolCalling: Bool, guidedGeneration: Bool) {
        executorConfiguration = SwitchboardExecutor.Configuration(id: CoordinatorRegistry.shared.register(coordinator))
        var declared: [LanguageModelCapabilities.Capability] = []
        if toolCalling { declared.append(.toolCalling) }
        if guidedGeneration { declared.append(.guidedGeneration) }
        capabilities = LanguageModelCapabilities(declared)
    }
}

@available(macOS 27.0, iOS 27.0, visionOS 27.0, *)
public struct SwitchboardExecutor: LanguageModelExecutor {
    public typealias Model = SwitchboardLanguageModel

    public struct Configuration: Hashable, Sendable {
        let id: ObjectIdentifier
    }

    let coordinator: Coordinator

    public init(configuration: Configuration) throws {
        guard let coordinator = CoordinatorRegistry.shared.coordinator(for: configuration.id) else {
            throw SwitchboardExecutorError.unknownCoordinator
        }
        self.coordinator = coordinator
    }

    public func respond(to request: LanguageModelExecutorGenerationRequest, model: SwitchboardLanguageModel,
                        streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
        let routed = try Self.executorRequest(request).generationRequest()
        let entryID = UUID().uuidString
        for await event in coordinator.stream(routed) {
            for output in try ExecutorOutput.outputs(of: event) {
                switch output {
                case .text(let text):
                    await channel.send(.response(entryID: entryID, action: .appendText(text, tokenCount: 1)))
                case .toolCall(let call):
                    await channel.send(.toolCalls(action: .toolCall(id: call.id, name: call.name,
                                                                    action: .appendArguments(call.arguments, tokenCount: 1))))
                case .usage(let usage):
                    await channel.send(.response(entryID: entryID, action: .updateUsage(
                        input: .init(totalTokenCount: usage.promptTokens, cachedTokenCount: usage.cachedPromptTokens),
                        output: .init(totalTokenCount: usage.completionTokens, reasoningTokenCount: 0))))
                }
            }
        }
    }

    /// The framework's request as plain values. Segments other than text (structured content,
    /// attachments) are written as their JSON or left out; a schema that does not encode is refused.
    static func executorRequest(_ request: LanguageModelExecutorGenerationRequest) throws -> ExecutorRequest {
        func text(_ segments: [Transcript.Segment]) -> String {
            segments.compactMap { segment -> String? in
                switch segment {
                case .text(let text): text.content
                @unknown default: nil
                }
            }.joined(separator: "\n")
        }
        var instructions: String?
        var turns: [SystemModelConversation.Turn] = []
        for entry in request.transcript.entries {
            switch entry {
            case .instructions(let value): instructions = text(value.segments)
            case .prompt(let value): turns.append(.prompt(text(value.segments)))
            case .response(let value): turns.append(.response(text(value.segments)))
            case .toolCalls(let calls):
                turns.append(.toolCalls(calls.map { ToolCall(id: $0.id, name: $0.toolName, arguments: $0.arguments.jsonString) }))
            case .toolOutput(let value):
                turns.append(.toolOutput(name: value.toolName, callID: value.id, output: text(value.segments), isError: false))
            @unknown default: continue
            }
        }
        let tools = try request.enabledTools.map {
            ExecutorRequest.Tool(name: $0.name, description: $0.description, parametersJSON: try Self.schemaJSON($0.parameters))
        }
        return ExecutorRequest(instructions: instructions, turns: turns, tools: tools,
                               schemaJSON: try request.schema.map(Self.schemaJSON),
                               temperature: request.generationOptions.temperature,
                               maximumResponseTokens: request.generationOptions.maximumResponseTokens)
    }

    /// The framework's `GenerationSchema` encodes as JSON Schema; Switchboard's schema reads that.
    static func schemaJSON(_ schema: GenerationSchema) throws -> String {
        String(decoding: try JSONEncoder().encode(schema), as: UTF8.self)
    }
}

/// Why an executor could not be made.
public enum SwitchboardExecutorError: Error, Sendable, Hashable {
    /// The configuration names a coordinator this process never registered.
    case unknownCoordinator
}

#endif
