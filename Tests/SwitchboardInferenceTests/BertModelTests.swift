import Foundation
import Testing
@testable import SwitchboardInference

/// all-MiniLM-L6-v2 against the float64 reference (`Tests/Fixtures/golden/minilm`).
@Suite("BERT encoder (all-MiniLM-L6-v2)", .serialized, .requiresMiniLMModel)
struct BertModelTests {
    /// An encoder per test: it runs one batch at a time and is not Sendable.
    static func encoder() throws -> BertEncoder { try BertEncoder(directory: MiniLMFixture.modelPath) }

    @Test("every golden embedding has cosine ≥ 0.99999 with F32 safetensors weights (one batch)")
    func golden() throws {
        let encoder = try Self.encoder()
        #expect(encoder.dimension == 384)
        let vectors = encoder.embed(MiniLMFixture.cases.map(\.text))
        #expect(vectors.count == MiniLMFixture.cases.count)
        for (c, v) in zip(MiniLMFixture.cases, vectors) {
            let cosine = MiniLMFixture.cosine(c.embedding, v)
            #expect(cosine >= 0.99999, "\(c.text.prefix(40)): cosine \(cosine)")
            #expect(abs(VectorMath.dot(v, v, count: v.count) - 1) < 1e-4)
        }
    }

    @Test("a batch of different lengths gives each text the vector it gets alone (the padding mask)")
    func batchEqualsSingle() throws {
        let encoder = try Self.encoder()
        let texts = ["short", "A somewhat longer sentence about the weather in Paris today.", "mid length text", ""]
        let batched = encoder.embed(texts)
        for (text, vector) in zip(texts, batched) {
            let alone = encoder.embed([text])[0]
            #expect(MiniLMFixture.cosine(alone, vector) > 0.999_999)
        }
    }

    @Test("invalid ids are refused")
    func invalidIDs() throws {
        let encoder = try Self.encoder()
        #expect(throws: BertError.invalidToken(30_522)) { try encoder.embed(ids: [[101, 30_522, 102]]) }
        #expect(throws: BertError.invalidToken(-1)) { try encoder.embed(ids: [[-1]]) }
    }
}
