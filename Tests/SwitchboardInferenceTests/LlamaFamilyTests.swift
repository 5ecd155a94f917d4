import Testing
@testable import SwitchboardInference

/// The Llama family on tiny synthetic files (no Qwen weights are reachable here): `llama` (RoPE
/// NORM), `qwen2` (q/k/v biases, NEOX) and `qwen3` (per-head q/k norm, NEOX) against a plain
/// reference, batched and one token at a time; malformed files are typed errors.
@Suite struct LlamaFamilyTests {
    static let tokens: [Int32] = [72, 101, 108, 108, 111, 256, 33, 10, 7]

    @Test(arguments: ["llama", "qwen2", "qwen3"])
    func forwardMatchesTheReference(arch: String) throws {
        let synthetic = SyntheticLlamaModel(arch: arch)
        let model = try synthetic.load()
        #expect(model.architecture.ropeStyle == (arch == "llama" ? .norm : .neox))
        let expected = synthetic.logits(for: Self.tokens)
        for oneByOne in [false, true] {
            let session = InferenceSession(model: model, contextLength: 32, threads: 2)
            var rows: [[Float]] = []
            _ = try session.scoreAll(Self.tokens, oneByOne: oneByOne) { rows.append(Array($0)) }
            #expect(rows.count == Self.tokens.count)
            var worst: Float = 0
            for (row, reference) in zip(rows, expected) {
                for (a, b) in zip(row, reference) { worst = max(worst, abs(a - b)) }
            }
            #expect(worst < 2e-3, "\(arch), one by one: \(oneByOne): max difference \(worst)")
        }
    }

    /// The variants' extra tensors matter: dropping the biases or norms changes the logits.
    @Test func biasesAndNormsAreUsed() throws {
        for arch in ["qwen2", "qwen3"] {
            var plain = SyntheticLlamaModel(arch: arch)
            let withExtras = plain.logits(for: [72, 101])
            plain.tensors = plain.tensors.filter {
                !$0.key.contains(".bias") && !$0.key.contains("_norm.weight")
                    || $0.key.contains("attn_norm") || $0.key.contains("ffn_norm") || $0.key.contains("output_norm")
            }
            let model = try plain.load()
            let session = InferenceSession(model: model, contextLength: 8)
            var rows: [[Float]] = []
            _ = try session.scoreAll([72, 101]) { rows.append(Array($0)) }
            #expect(zip(rows[1], withExtras[1]).contains { abs($0 - $1) > 1e-2 }, "\(arch)")
        }
    }

    @Test func malformedFilesAreTypedErrors() {
        let synthetic = SyntheticLlamaModel(arch: "llama")
        func loadError(_ edit: @escaping (inout GGUFTestWriter) -> Void) -> InferenceError? {
            do { _ = try synthetic.load(edit: edit); return nil } catch { return error }
        }
        func setMetadata(_ key: String, _ value: GGUFValue) -> (inout GGUFTestWriter) -> Void {
            { writer in writer.metadata = writer.metadata.map { $0.0 == key ? (key, value) : $0 } }
        }
        #expect(loadError(setMetadata("general.architecture", .string("mamba"))) == .unsupportedArchitecture("mamba"))
        #expect(loadError { $0.tensors.removeAll { $0.name == "blk.1.ffn_up.weight" } } == .missingTensor("blk.1.ffn_up.weight"))
        if case .unsupportedTensor(let name, _)? = loadError({ w in
            if let i = w.tensors.firstIndex(where: { $0.name == "blk.0.attn_k.weight" }) { w.tensors[i].dimensions = [64,
                48]; w.tensors[i].data = Array(w.tensors[i].data!.prefix(64 * 48 * 4)); w.tensors[i].byteCount = 64 * 48 * 4 }
        }) {
            #expect(name == "blk.0.attn_k.weight")
        } else {
            Issue.record("a wrong shape must be unsupportedTensor")
        }
        if case .tokenizer(let message)? = loadError(setMetadata("tokenizer.ggml.pre", .string("no-such-pre"))) {
            #expect(message.contains("no-such-pre"))
        } else {
            Issue.record("an unknown pre-tokenizer must be a tokenizer error naming it")
        }
        if case .tokenizer? = loadError(setMetadata("tokenizer.ggml.merges", .array(.string(["Ġ zz"])))) {} else {
            Issue.record("a merge outside the vocabulary must be a tokenizer error")
        }
        // More tokens than embedding rows.
        let bigger = synthetic.vocabulary + ["extra"]
        if case .tokenizer(let message)? = loadError({ w in
            w.metadata = w.metadata.map { $0.0 == "tokenizer.ggml.tokens" ? ($0.0, .array(.string(bigger))) : $0 }
            w.metadata = w.metadata.map { $0.0 == "tokenizer.ggml.token_type" ? ($0.0, .array(.int32([Int32](repeating: 1,
                count: bigger.count)))) : $0 }
        }) {
            #expect(message.contains("embedding rows"))
        } else {
            Issue.record("a vocabulary larger than the embedding must be a tokenizer error")
        }
        #expect(loadError(setMetadata("llama.embedding_length", .uint64(1 << 40))) != nil)
    }
}
