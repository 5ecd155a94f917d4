import Foundation
import Testing
@testable import SwitchboardInference

/// all-MiniLM-L6-v2 in llama.cpp's `bert` GGUF layout, written here from the safetensors weights the
/// way `shared/tools/minilm_to_gguf.py` (llama.cpp's converter) writes it: its tensor names, ne0-first
/// dimensions, and the WordPiece vocabulary in the phantom-space convention.
@Suite("BERT encoder from a bert GGUF", .serialized, .requiresMiniLMModel)
struct BertGGUFTests {
    static let layerNames = [
        "attention.self.query": "attn_q", "attention.self.key": "attn_k", "attention.self.value": "attn_v",
        "attention.output.dense": "attn_output", "attention.output.LayerNorm": "attn_output_norm",
        "intermediate.dense": "ffn_up", "output.dense": "ffn_down", "output.LayerNorm": "layer_output_norm",
    ]

    static func image() throws -> [UInt8] {
        let weights = try SafetensorsFile(contentsOf: MiniLMFixture.modelPath + "/model.safetensors")
        var names: [(String, String)] = [
            ("embeddings.word_embeddings.weight", "token_embd.weight"),
            ("embeddings.token_type_embeddings.weight", "token_types.weight"),
            ("embeddings.position_embeddings.weight", "position_embd.weight"),
            ("embeddings.LayerNorm.weight", "token_embd_norm.weight"), ("embeddings.LayerNorm.bias", "token_embd_norm.bias"),
        ]
        for il in 0..<6 {
            for (part, short) in layerNames.sorted(by: { $0.key < $1.key }) {
                for suffix in ["weight", "bias"] { names.append(("encoder.layer.\(il).\(part).\(suffix)", "blk.\(il).\(short).\(suffix)")) }
            }
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: MiniLMFixture.directory.appendingPathComponent("tokenizer.json")))
        let vocab = ((json as? [String: Any])?["model"] as? [String: Any])?["vocab"] as? [String: Int] ?? [:]
        let tokens = vocab.sorted { $0.value < $1.value }.map { piece, _ in
            piece.hasPrefix("[") && piece.hasSuffix("]") ? piece : piece.hasPrefix("##") ? String(piece.dropFirst(2)) : "\u{2581}" + piece
        }
        var writer = GGUFTestWriter()
        writer.metadata = [
            ("general.architecture", .string("bert")), ("bert.context_length", .uint32(512)), ("bert.embedding_length", .uint32(384)),
            ("bert.feed_forward_length", .uint32(1536)), ("bert.block_count", .uint32(6)), ("bert.attention.head_count", .uint32(12)),
            ("bert.attention.layer_norm_epsilon", .float32(1e-12)), ("bert.attention.causal", .bool(false)),
            ("bert.pooling_type", .uint32(1)), ("tokenizer.ggml.model", .string("bert")), ("tokenizer.ggml.tokens", .array(.string(tokens))),
        ]
        for (source, target) in names {
            let info = try weights.tensor(named: source)
            let data = weights.withTensorBytes(info) { Array($0) }
            writer.tensors.append(.init(name: target, dimensions: info.shape.reversed().map { UInt64($0) }, type: 0,
                                        byteCount: data.count, data: data))
        }
        return writer.build()
    }

    @Test("ids from the GGUF vocabulary and every golden embedding (cosine ≥ 0.99999) match, F32 weights")
    func golden() throws {
        let file = try GGUFFile(bytes: try Self.image())
        let encoder = try BertEncoder(gguf: file)
        for c in MiniLMFixture.cases { #expect(encoder.tokenizer.encode(c.text) == c.ids, "\(c.text.prefix(40))") }
        for (c, v) in zip(MiniLMFixture.cases, encoder.embed(MiniLMFixture.cases.map(\.text))) {
            let cosine = MiniLMFixture.cosine(c.embedding, v)
            #expect(cosine >= 0.99999, "\(c.text.prefix(40)): cosine \(cosine)")
        }
    }

    @Test("a GGUF of another architecture, or with a mis-shaped tensor, is refused with a typed error")
    func refused() throws {
        var writer = GGUFTestWriter()
        writer.metadata = [("general.architecture", .string("llama"))]
        #expect(throws: BertError.unsupportedConfiguration("GGUF architecture llama (expected bert)")) {
            try BertEncoder(gguf: try GGUFFile(bytes: writer.build()))
        }
        writer.metadata = [
            ("general.architecture", .string("bert")), ("bert.context_length", .uint32(8)), ("bert.embedding_length", .uint32(4)),
            ("bert.feed_forward_length", .uint32(8)), ("bert.block_count", .uint32(1)), ("bert.attention.head_count", .uint32(3)),
            ("tokenizer.ggml.model", .string("bert")), ("tokenizer.ggml.tokens", .array(.string(["[UNK]", "[CLS]", "[SEP]"]))),
        ]
        #expect(throws: BertError.unsupportedConfiguration("3 heads for hidden size 4")) {
            try BertEncoder(gguf: try GGUFFile(bytes: writer.build()))
        }
    }
}
