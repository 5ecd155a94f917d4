import Testing
@testable import SwitchboardInference

@Suite("GGUF reader on the real model", .requiresGGUFModel)
struct GGUFModelTests {
    @Test func headerOfGemma3() throws {
        let file = try GGUFTestModel.open()
        #expect(file.version == 3)
        #expect(try file.architecture == "gemma3")
        #expect(try file.int("gemma3.embedding_length") == 640)
        #expect(try file.int("gemma3.block_count") == 18)
        #expect(try file.stringArray("tokenizer.ggml.tokens").count == 262_144)
        #expect(try file.floatArray("tokenizer.ggml.scores").count == 262_144)
        #expect(try file.int32Array("tokenizer.ggml.token_type").count == 262_144)
        // 18 layers × 13 tensors + token_embd + output_norm.
        #expect(file.tensors.count == 18 * 13 + 2)
        let embedding = try file.tensor(named: "token_embd.weight")
        #expect(embedding.dimensions == [640, 262_144])
        #expect(embedding.type.isQuantized)
        let norm = try file.tensor(named: "blk.0.attn_norm.weight")
        #expect(norm.type == .f32 && norm.dimensions == [640])
        // Norm weights are stored as w + 1, so they sit near 1 rather than 0.
        let weights = file.tensorBytes(norm).loadUnaligned(as: Float.self)
        #expect(weights.isFinite)
        #expect(file.dataOffset % file.alignment == 0)
        for tensor in file.tensors {
            #expect(tensor.offset + tensor.byteCount <= file.byteCount)
        }
    }
}
