import Foundation
import Switchboard
import SwitchboardTestKit
import Testing
@testable import SwitchboardLocal

/// Structured output on device with the real instruct model: constrained decoding makes every answer
/// valid, sensitive structured requests stay on the device, typed and streamed answers decode.
@Suite("Structured output with the real instruct model", .serialized, .enabled(if: RealModel.chatEnabled, RealModel.chatSkipReason))
struct RealStructuredTests {
    static let provider = RealChatModelTests.provider
    static let system = ChatMessage(.system, "You are a helpful assistant. Answer briefly and accurately.")

    static func coordinator(_ extra: [any Provider] = []) -> Coordinator {
        Coordinator(providers: [provider] + extra, configuration: SwitchboardConfiguration(concurrency: [provider.id: 1],
                                                                                           defaultDeadline: RealModel.testDeadline),
                                                   deviceState: FixedDeviceState())
    }

    /// `Tests/Fixtures/golden/smollm2/structured_public.json`, read with the order-keeping reader.
    static func publicTasks() throws -> [GeneratedContent] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden/smollm2/structured_public.json")
        let document = try GeneratedContent(json: String(contentsOf: url, encoding: .utf8))
        guard case .array(let cases)? = document["cases"] else { throw StructuredOutputError.invalidJSON("no cases") }
        return cases
    }

    @Test("the local chat provider declares structured output; the base model does not")
    func capabilities() {
        #expect(Self.provider.capabilities.supportsStructuredOutput)
        #expect(!RealModel.provider.capabilities.supportsStructuredOutput)
    }

    @Test("every public structured task gets a valid answer, and more expected answers than llama.cpp's 2 of 7")
    func everyPublicTaskIsValid() async throws {
        let coordinator = Self.coordinator()
        let tasks = try Self.publicTasks()
        #expect(tasks.count == 12)
        var correct = 0
        for task in tasks {
            guard let prompt = task["prompt"]?.stringValue, let schemaJSON = task["schema"] else { Issue.record("bad task"); continue }
            let schema = try GenerationSchema(jsonSchema: schemaJSON.jsonText)
            let request = GenerationRequest(prompt: prompt, messages: [Self.system], output: .schema(schema), maxTokens: 128)
            let response = try await coordinator.respond(to: request)
            #expect(response.providerID == Self.provider.id)
            let content = try schema.parseValid(response.content)
            if case .object(let expected)? = task["expected"],
               expected.allSatisfy({ member in
                   content[member.key].map { $0 == member.value || $0.numberValue == member.value.numberValue && $0.numberValue != nil } ?? false
               }) {
                correct += 1
            }
        }
        #expect(correct > 2)
    }

    @Test("a sensitive structured request is served on device; a structured recording remote receives nothing")
    func sensitiveStructuredStaysOnDevice() async throws {
        let remote = RecordingProvider(id: "remote-recorded", capabilities: ProviderCapabilities(
            isOnDevice: false, maxContextTokens: 128_000, supportsStructuredOutput: true), tokens: ["{}"])
        let coordinator = Self.coordinator([remote])
        let request = GenerationRequest(prompt: "Extract the entities: My therapist Dr. Anna Weber in Berlin diagnosed me with depression.",
                                        messages: [Self.system], maxTokens: 128, preferredProviders: ["remote-recorded"])
        let answer = try await coordinator.respond(to: request, generating: ExtractedEntities.self)
        #expect(answer.providerID == Self.provider.id)
        #expect(answer.privacy == .sensitive)
        #expect(await remote.callCount == 0)
    }

    @Test("a structured answer resumed from a half-written document is continued under the schema and validates whole")
    func resumedStructuredAnswer() async throws {
        let schema = GenerationSchema.object([.init("city", .string(maxLength: 40)), .init("country", .string(maxLength: 40))])
        var request = GenerationRequest(prompt: "Which city is the capital of France?", messages: [Self.system],
                                        output: .schema(schema), maxTokens: 48)
        request.answerPrefix = #"{"city": "Pa"#
        var text = ""
        for try await event in await Self.provider.generate(ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public))) {
            if case .token(let piece) = event { text += piece }
        }
        #expect(!text.hasPrefix("{"), "only the continuation is yielded: \(text)")
        let whole = try schema.parseValid(#"{"city": "Pa"# + text)
        #expect(whole["city"].map { if case .string(let city) = $0 { city.hasPrefix("Pa") } else { false } } == true)
    }

    @Test("a typed answer streams as growing partial snapshots and ends with the decoded value")
    func streamedSnapshots() async throws {
        let coordinator = Self.coordinator()
        let request = GenerationRequest(prompt: "Summarize: The city council approved a new park. Construction starts in May.",
                                        messages: [Self.system], maxTokens: 96)
        let stream = coordinator.streamResponse(to: request, generating: Summary.self)
        var snapshots: [ResponseStream<Summary>.Snapshot] = []
        for try await snapshot in stream { snapshots.append(snapshot) }
        #expect(snapshots.count > 2)
        let answer = try await stream.collect()
        #expect(!answer.content.keyPoints.isEmpty && !answer.content.title.isEmpty)
        #expect(snapshots.last?.content == answer.content && snapshots.last?.rawContent == answer.rawContent)
        #expect(snapshots.contains { $0.rawContent["title"] != nil && $0.content == nil }, "partial snapshots before the value decodes")
    }
}
