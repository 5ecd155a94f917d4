import Foundation
import SwitchboardCore
import Testing
@testable import SwitchboardLocal

/// Constrained decoding on device for every committed schema fixture (Pydantic 2 and zod 4): the real
/// instruct model, greedy, 256 tokens at most, must write a complete document that validates. The
/// budget reserve (`closingCost`) steers the model into closing the document before the tokens run
/// out, so an answer cut short by `maxTokens` is a bug this test reports (it does not validate).
@Suite("Schema fixtures decode to valid documents with the real instruct model", .serialized,
       .enabled(if: RealModel.chatEnabled, RealModel.chatSkipReason))
struct RealFixtureDecodingTests {
    static let system = ChatMessage(.system, "You are a helpful assistant. Answer briefly and accurately.")
    static let maxTokens = 256

    @Test(arguments: SchemaFixtures.pydantic + SchemaFixtures.zod)
    func greedyConstrainedOutputValidates(file: String) async throws {
        let schema = try GenerationSchema(jsonSchema: SchemaFixtures.text(file))
        // "pydantic-TreeNode.json" → "TreeNode"
        let model = file.split(separator: "-", maxSplits: 1).last.map { String($0.dropLast(5)) } ?? file
        let request = GenerationRequest(prompt: "Write an example \(model) as JSON.", messages: [Self.system],
                                        output: .schema(schema), maxTokens: Self.maxTokens)
        var text = ""
        var finish: FinishReason?
        var tokens: Int?
        let providerRequest = ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public))
        for try await event in await RealChatModelTests.provider.generate(providerRequest) {
            switch event {
            case .token(let piece): text += piece
            case .finished(let reason, let usage): finish = reason; tokens = usage?.completionTokens
            case .toolCall: Issue.record("\(file): a tool call")
            }
        }
        #expect(finish != nil, "\(file): the stream ended without finishing")
        do {
            _ = try schema.parseValid(text)
        } catch {
            Issue.record("\(file): \(error) (finish \(finish.map(\.rawValue) ?? "none"), \(tokens ?? -1) tokens): \(text)")
        }
    }
}
