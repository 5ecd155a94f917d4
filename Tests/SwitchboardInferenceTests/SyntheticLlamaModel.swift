import Foundation
@testable import SwitchboardInference

/// A tiny Llama-family GGUF written by the tests (F32 weights from a seeded generator, a byte-level
/// BPE vocabulary), with a plain-Float reference forward pass to check the engine against. Variants:
/// `llama` (RoPE NORM), `qwen2` (q/k/v biases, NEOX), `qwen3` (per-head q/k RMSNorm, NEOX).
struct SyntheticLlamaModel {
    let arch: String
    let d = 64, layers = 2, ffn = 128, heads = 4, kvHeads = 2, head = 16, eps: Float = 1e-5, ropeBase: Float = 10_000
    /// Positions the file declares (`context_length`).
    var contextLength = 64
    var vocabulary: [String]
    var tensors: [String: (shape: [Int], values: [Float])] = [:]

    init(arch: String, seed: UInt64 = 1) {
        self.arch = arch
        vocabulary = (0..<256).map { String(decoding: ByteLevelAlphabet.utf8OfByte[$0], as: UTF8.self) } + ["Ġt"]
        var state = seed
        func random() -> Float {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Float((z ^ (z >> 31)) >> 40) / Float(1 << 24) * 2 - 1
        }
        func matrix(_ name: String, columns: Int, rows: Int, scale: Float = 0.15) {
            tensors[name] = ([columns, rows], (0..<columns * rows).map { _ in random() * scale })
        }
        func vector(_ name: String, _ count: Int, around center: Float = 1) {
            tensors[name] = ([count], (0..<count).map { _ in center + random() * 0.2 })
        }
        matrix("token_embd.weight", columns: d, rows: vocabulary.count, scale: 0.5)
        vector("output_norm.weight", d)
        for il in 0..<layers {
            let p = "blk.\(il)."
            vector(p + "attn_norm.weight", d); vector(p + "ffn_norm.weight", d)
            matrix(p + "attn_q.weight", columns: d, rows: heads * head); matrix(p + "attn_k.weight", columns: d, rows: kvHeads * head)
            matrix(p + "attn_v.weight", columns: d, rows: kvHeads * head); matrix(p + "attn_output.weight", columns: heads * head, rows: d)
            matrix(p + "ffn_gate.weight", columns: d, rows: ffn); matrix(p + "ffn_up.weight", columns: d, rows: ffn)
            matrix(p + "ffn_down.weight", columns: ffn, rows: d)
            if arch == "qwen2" {
                vector(p + "attn_q.bias", heads * head, around: 0); vector(p + "attn_k.bias", kvHeads * head, around: 0)
                vector(p + "attn_v.bias", kvHeads * head, around: 0)
            }
            if arch == "qwen3" { vector(p + "attn_q_norm.weight", head); vector(p + "attn_k_norm.weight", head) }
        }
    }

    /// The GGUF image; `edit` may change metadata or tensors first (error-case tests).
    func bytes(edit: (inout GGUFTestWriter) -> Void = { _ in }) -> [UInt8] {
        var metadata: [(String, GGUFValue)] = [
            ("general.architecture", .string(arch)), ("general.alignment", .uint32(32)),
            ("\(arch).embedding_length", .uint32(UInt32(d))), ("\(arch).block_count", .uint32(UInt32(layers))),
            ("\(arch).feed_forward_length", .uint32(UInt32(ffn))), ("\(arch).attention.head_count", .uint32(UInt32(heads))),
            ("\(arch).attention.head_count_kv", .uint32(UInt32(kvHeads))), ("\(arch).context_length", .uint32(UInt32(contextLength))),
            ("\(arch).attention.layer_norm_rms_epsilon", .float32(eps)), ("\(arch).rope.freq_base", .float32(ropeBase)),
            ("tokenizer.ggml.model", .string("gpt2")), ("tokenizer.ggml.pre", .string("gpt-2")),
            ("tokenizer.ggml.tokens", .array(.string(vocabulary))),
            ("tokenizer.ggml.token_type", .array(.int32([Int32](repeating: 1, count: vocabulary.count)))),
            ("tokenizer.ggml.merges", .array(.string(["Ġ t"]))),
            ("tokenizer.ggml.eos_token_id", .uint32(0)), ("tokenizer.ggml.add_bos_token", .bool(false)),
        ]
        if arch == "qwen3" { metadata.append(("\(arch).attention.key_length", .uint32(UInt32(head)))) }
        var writer = GGUFTestWriter(metadata: metadata)
        writer.tensors = tensors.keys.sorted().map { name in
            let (shape, values) = tensors[name]!
            let data = values.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
            return GGUFTestWriter.Tensor(name: name, dimensions: shape.map(UInt64.init), type: 0, byteCount: data.count, data: data)
        }
        edit(&writer)
        return writer.build()
    }

    /// Writes the file and loads it with the engine.
    func load(edit: (inout GGUFTestWriter) -> Void = { _ in }) throws(InferenceError) -> LanguageModel {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("synthetic-\(arch)-\(UUID().uuidString).gguf").path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes(edit: edit))) else {
            throw .tokenizer("the test could not write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try LanguageModel.load(from: path)
    }
}
