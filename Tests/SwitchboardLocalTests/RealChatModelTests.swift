import Foundation
import Switchboard
import SwitchboardTestKit
import Testing
@testable import SwitchboardLocal

/// The instruct model (SmolLM2-135M-Instruct) behind the local provider, through the runtime: chat
/// questions get answers on device, end-of-turn tokens never reach the caller, routing picks the
/// instruct model for chat and the base model for completions, and cancellation frees the slot.
@Suite("Local chat with the real instruct model", .serialized, .enabled(if: RealModel.chatEnabled, RealModel.chatSkipReason))
struct RealChatModelTests {
    static let provider = LocalModelProvider(configuration: .smolLM2_135mInstruct, modelPath: RealModel.chatPath,
                                             loader: LocalEngineLoader(threads: 2), idleTimeout: nil)
    static let remoteCapabilities = ProviderCapabilities(isOnDevice: false, maxContextTokens: 128_000)

    static func question(_ text: String, maxTokens: Int = 32) -> GenerationRequest {
        GenerationRequest(messages: [ChatMessage(.system, "You are a helpful assistant. Answer briefly and accurately."), ChatMessage(.user, text)],
                          maxTokens: maxTokens)
    }

    @Test("a chat question is answered on device; the answer ends at end-of-turn, which never shows")
    func answersAndStopsAtEndOfTurn() async throws {
        let coordinator = Coordinator(providers: [Self.provider],
                                      configuration: SwitchboardConfiguration(concurrency: [Self.provider.id: 1],
                                                                              defaultDeadline: RealModel.testDeadline),
                                      deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: Self.question("What is the capital of France?"))
        #expect(response.providerID == "local-smollm2-135m-instruct")
        #expect(response.content.contains("Paris"), "\(response.content)")
        #expect(response.finishReason == .stop)
        #expect(response.usage.completionTokens < 32)
        for marker in ["<|im_end|>", "<|im_start|>", "<|endoftext|>", "assistant\n"] { #expect(!response.content.contains(marker)) }
    }

    @Test("a resumed answer is continued from its prefix: the model goes on after it and yields only new text")
    func continuesAnAnswerPrefix() async throws {
        var request = Self.question("What is the capital of France?", maxTokens: 12)
        request.answerPrefix = "The capital of France is"
        var text = ""
        for try await event in await Self.provider.generate(ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public))) {
            if case .token(let piece) = event { text += piece }
        }
        #expect(text.contains("Paris"), "\(text)")
        #expect(!text.contains("The capital of France is"), "the prefix is not repeated: \(text)")
    }

    @Test("a sensitive chat question stays on device: the preferred recording remote receives nothing")
    func sensitiveChatStaysOnDevice() async throws {
        let remote = RecordingProvider(id: "remote-recorded", capabilities: Self.remoteCapabilities, tokens: ["cloud"])
        let coordinator = Coordinator(providers: [Self.provider, remote],
                                      configuration: SwitchboardConfiguration(concurrency: [Self.provider.id: 1],
                                                                              defaultDeadline: RealModel.testDeadline),
                                      deviceState: FixedDeviceState())
        var request = Self.question("My SSN is 219-09-9999. Should I give it to my landlord?")
        request.preferredProviders = ["remote-recorded"]
        let response = try await coordinator.respond(to: request)
        #expect(response.providerID == Self.provider.id)
        #expect(response.privacy == .sensitive)
        #expect(response.content.contains { $0.isLetter })
        #expect(await remote.callCount == 0)
    }

    @Test("with both local models registered, chat goes to the instruct model and completion to the base model",
          .enabled(if: RealModel.enabled, RealModel.skipReason))
    func routingPicksTheModelKind() async throws {
        // Its own Gemma provider: `RealModel.provider` is unloaded by another suite's test meanwhile.
        let base = LocalModelProvider(configuration: .gemma3_270m, modelPath: RealModel.path,
                                      loader: LocalEngineLoader(threads: 2), idleTimeout: nil)
        let coordinator = Coordinator(providers: [base, Self.provider],
                                      configuration: SwitchboardConfiguration(concurrency: [base.id: 1, Self.provider.id: 1],
                                                                              defaultDeadline: RealModel.testDeadline),
                                      deviceState: FixedDeviceState())
        let chat = try await coordinator.respond(to: GenerationRequest(prompt: "Name a primary color.", maxTokens: 8))
        #expect(chat.providerID == Self.provider.id)
        let completion = try await coordinator.respond(to: GenerationRequest(prompt: "The capital of France is", kind: .completion, maxTokens: 4))
        #expect(completion.providerID == base.id)
        // Private chat also lands on the instruct model: privacy narrows to the device, kind picks the model.
        let privateChat = try await coordinator.respond(to: Self.question("I was diagnosed with asthma. What should I ask my doctor?", maxTokens: 8))
        #expect(privateChat.providerID == Self.provider.id && privateChat.privacy != .public)
        await base.unload()
    }

    @Test("cancelling a chat mid-generation frees the slot for the next request")
    func cancellationFreesTheSlot() async throws {
        let provider = Self.provider
        let before = await provider.statistics
        let long = ProviderRequest(request: Self.question("Write a long story about a dragon who learns to bake bread.", maxTokens: 300),
                                   analysis: RequestAnalysis(privacy: .public))
        let cancelled = Task {
            var pieces = 0
            for try await event in await provider.generate(long) {
                if case .token = event { pieces += 1 }
                if pieces == 2 { break }
            }
            return pieces
        }
        #expect(try await cancelled.value == 2)
        var answer = ""
        let next = ProviderRequest(request: Self.question("What is the capital of France?"), analysis: RequestAnalysis(privacy: .public))
        for try await event in await provider.generate(next) { if case .token(let piece) = event { answer += piece } }
        #expect(answer.contains("Paris"))
        let after = await provider.statistics
        #expect(after.cancelledGenerations == before.cancelledGenerations + 1)
        #expect(after.completionTokens - before.completionTokens < 32)
    }

    struct Weather: Tool {
        struct Arguments: Generable {
            var city: String
            static var generationSchema: GenerationSchema { .object([.init("city", .string(maxLength: 40))]) }
        }
        var name: String { "weather" }
        var description: String { "Gives the current weather in a city." }
        func call(arguments: Arguments) async throws -> String { "sunny, 22 degrees" }
    }

    @Test("the tool loop runs on the instruct model: every step is valid JSON, then a text answer")
    func toolLoopOnDevice() async throws {
        let session = Session(coordinator: Coordinator(providers: [Self.provider], deviceState: FixedDeviceState()),
                              instructions: "You are a helpful assistant. Answer briefly and accurately.", tools: [Weather()],
                              maxToolRounds: 2, options: .init(maxTokens: 48))
        let answer = try await session.respond(to: "What is the weather in Paris right now?")
        #expect(answer.providerID == Self.provider.id && !answer.content.isEmpty)
        for entry in await session.transcript {
            if case .toolCall(let name, let arguments, _) = entry {
                #expect(name == "weather")
                #expect((try? Weather().parameters.parseValid(arguments)) != nil, "\(arguments)")
            }
        }
    }
}
