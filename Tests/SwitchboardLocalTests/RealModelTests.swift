import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardTestKit
import Testing
@testable import SwitchboardLocal

/// The on-device provider with the real model, end to end. One loaded model is shared; the suite runs
/// serially because its tests take turns on that one engine (and one of them unloads it).
@Suite("Local provider with the real model", .serialized, .enabled(if: RealModel.enabled, RealModel.skipReason))
struct RealModelTests {
    static let remoteCapabilities = ProviderCapabilities(isOnDevice: false, maxContextTokens: 128_000,
                                                         supportsImages: true, supportsStructuredOutput: true)

    static func request(_ prompt: String, maxTokens: Int) -> ProviderRequest {
        ProviderRequest(request: GenerationRequest(prompt: prompt, maxTokens: maxTokens),
                        analysis: RequestAnalysis(privacy: .public))
    }

    static func text(_ prompt: String, maxTokens: Int) async throws -> String {
        var text = ""
        for try await event in await RealModel.provider.generate(request(prompt, maxTokens: maxTokens)) {
            if case .token(let piece) = event { text += piece }
        }
        return text
    }

    @Test("a sensitive prompt is answered on device with real text; the recording remote gets nothing")
    func sensitiveEndToEnd() async throws {
        let remote = RecordingProvider(id: "remote-recorded", capabilities: Self.remoteCapabilities, tokens: ["cloud"])
        let local = RealModel.provider
        let coordinator = Coordinator(providers: [local, remote],
                                      configuration: SwitchboardConfiguration(concurrency: [local.id: 1],
                                                                              defaultDeadline: RealModel.testDeadline),
                                      deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: GenerationRequest(
            prompt: "My SSN is 219-09-9999, and I need to update my tax form. The first step is",
            maxTokens: 12, preferredProviders: ["remote-recorded"]))
        #expect(response.providerID == local.id)
        #expect(response.privacy == .sensitive)
        #expect(response.usage.completionTokens > 0 && response.usage.promptTokens > 10)
        #expect(response.content.contains { $0.isLetter })
        #expect(await remote.callCount == 0)
    }

    @Test("greedy output through the provider equals the engine's own greedy output")
    func greedyMatchesEngine() async throws {
        for prompt in ["The capital of France is", "def fibonacci(n):"] {
            let expected = try await RealModel.referenceGreedy(prompt, tokens: 16)
            let actual = try await Self.text(prompt, maxTokens: 16)
            #expect(!expected.isEmpty)
            #expect(actual == expected, "prompt: \(prompt)")
        }
    }

    @Test("four concurrent requests give the same four outputs as four sequential runs")
    func concurrentEqualsSequential() async throws {
        let prompts = ["The three primary colors are", "Once upon a time,", "Water boils at", "The best way to learn is"]
        var sequential: [String] = []
        for prompt in prompts { sequential.append(try await Self.text(prompt, maxTokens: 8)) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, prompt) in prompts.enumerated() {
                group.addTask { (index, try await Self.text(prompt, maxTokens: 8)) }
            }
            var results = [String](repeating: "", count: prompts.count)
            for try await (index, text) in group { results[index] = text }
            return results
        }
        #expect(concurrent == sequential)
        #expect(Set(sequential).count == 4)
    }

    @Test("cancelling mid-generation stops within a token and frees the slot")
    func cancellation() async throws {
        let provider = RealModel.provider
        let before = await provider.statistics
        let cancelled = Task {
            var pieces = 0
            for try await event in await provider.generate(Self.request("Write a long story about a dragon:", maxTokens: 400)) {
                if case .token = event { pieces += 1 }
                if pieces == 2 { break }
            }
            return pieces
        }
        #expect(try await cancelled.value == 2)
        let next = try await Self.text("The capital of France is", maxTokens: 4)
        #expect(!next.isEmpty)
        let after = await provider.statistics
        #expect(after.cancelledGenerations == before.cancelledGenerations + 1)
        #expect(after.completionTokens - before.completionTokens <= 4)
    }

    @Test("unload, then a new request reloads the model (without re-hashing) and answers")
    func unloadAndReload() async throws {
        let provider = RealModel.provider
        try await provider.loadAndWait()
        let hashes = await ModelVerifier.shared.hashesComputed
        let loads = await provider.statistics.loads
        await provider.unload()
        #expect(await provider.state == .notLoaded)
        #expect(await provider.availability() == .notLoaded)
        let text = try await Self.text("The capital of France is", maxTokens: 4)
        #expect(!text.isEmpty)
        #expect(await provider.statistics.loads == loads + 1)
        #expect(await ModelVerifier.shared.hashesComputed == hashes)
    }

    @Test("an oversized prompt is a typed context error, and the router falls back to a larger context")
    func oversizedPrompt() async throws {
        let provider = RealModel.provider
        let tokenizer = try await RealModel.reference.value.tokenizer
        let huge = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 1000)
        let hugeTokens = tokenizer.encode(huge, addBOS: true).count
        do {
            _ = try await Self.text(huge, maxTokens: 16)
            Issue.record("expected a context error")
        } catch let error as ProviderError {
            #expect(error == .contextLengthExceeded(limit: 8192, requested: hugeTokens + 16))
        }

        // Digits are one token each but count as half a token in the router's byte-based estimate, so the
        // router admits this prompt and only the model's tokenizer finds it too long.
        let digits = (0..<6000).map { String($0 * 7 % 10) }.joined(separator: " ")
        let large = ScriptedProvider(id: "remote-large", capabilities: Self.remoteCapabilities, output: .tokens(["fits"]))
        let coordinator = Coordinator(providers: [provider, large],
                                      configuration: SwitchboardConfiguration(concurrency: [provider.id: 1],
                                                                              defaultDeadline: RealModel.testDeadline),
                                      deviceState: FixedDeviceState())
        let request = GenerationRequest(prompt: digits, maxTokens: 4000, preferredProviders: [provider.id])
        let estimate = coordinator.analyzer.analyze(request).estimatedPromptTokens
        let actual = tokenizer.encode(digits, addBOS: true).count
        try #require(estimate + 4000 <= 8192 && actual + 4000 > 8192)
        var fallbackReason: ProviderError?
        var final: GenerationResponse?
        for await event in coordinator.stream(request) {
            if case .fallback(let from, _, let reason) = event, from == provider.id { fallbackReason = reason }
            if case .completed(let response) = event { final = response }
        }
        #expect(fallbackReason == .contextLengthExceeded(limit: 8192, requested: actual + 4000))
        #expect(final?.providerID == "remote-large")
    }

    @Test("seeded sampling replays exactly; chat messages go in as Gemma turns with control tokens parsed")
    func samplingAndTurns() async throws {
        let provider = RealModel.provider
        func sampled(seed: UInt64) async throws -> String {
            let request = GenerationRequest(prompt: "Once upon a time,", maxTokens: 10,
                                            sampling: SamplingOptions(temperature: 0.9, topK: 40, topP: 0.95, seed: seed))
            var text = ""
            for try await event in await provider.generate(ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public))) {
                if case .token(let piece) = event { text += piece }
            }
            return text
        }
        let first = try await sampled(seed: 42)
        #expect(try await sampled(seed: 42) == first)

        let tokenizer = try await RealModel.reference.value.tokenizer
        let chat = GenerationRequest(messages: [ChatMessage(.system, "Answer briefly."), ChatMessage(.user, "Name a colour.")],
                                     maxTokens: 6)
        let builder = PromptBuilder(format: .completion, contextLength: 8192,
                                    counter: TokenCounter { tokenizer.encode($0, addBOS: false, parseSpecial: $1).count })
        let built = try builder.build(chat)
        let ids = tokenizer.encode(built.text, addBOS: true, parseSpecial: built.parseSpecial)
        #expect(ids.filter { $0 == 105 }.count == 2 && ids.filter { $0 == 106 }.count == 1)
        #expect(built.tokenCount == ids.count)
        var events: [ProviderEvent] = []
        for try await event in await provider.generate(ProviderRequest(request: chat, analysis: RequestAnalysis(privacy: .public))) {
            events.append(event)
        }
        guard case .finished(_, let usage)? = events.last else { Issue.record("no finished event"); return }
        #expect(usage?.promptTokens == ids.count)
    }
}
