import Testing
@testable import SwitchboardInference

/// Byte-level BPE tokenizers from synthetic GGUF metadata, and every way that metadata can be wrong.
@Suite("Byte-level BPE from GGUF metadata")
struct TokenizerBPEMetadataTests {
    static let tokens = ["<|endoftext|>", "<|im_end|>"] + ByteLevelAlphabet.utf8OfByte.map { String(decoding: $0, as: UTF8.self) }
        + ["Ġt", "Ġthe", "he"]

    static func file(_ edit: (inout [(String, GGUFValue)]) -> Void = { _ in }) throws -> GGUFFile {
        var metadata: [(String, GGUFValue)] = [
            ("tokenizer.ggml.model", .string("gpt2")),
            ("tokenizer.ggml.pre", .string("smollm")),
            ("tokenizer.ggml.tokens", .array(.string(tokens))),
            ("tokenizer.ggml.token_type", .array(.int32([3, 3] + [Int32](repeating: 1, count: tokens.count - 2)))),
            ("tokenizer.ggml.merges", .array(.string(["Ġ t", "h e", "Ġt he"]))),
            ("tokenizer.ggml.bos_token_id", .uint32(0)),
            ("tokenizer.ggml.eos_token_id", .uint32(1)),
        ]
        edit(&metadata)
        var writer = GGUFTestWriter(metadata: metadata)
        return try GGUFFile(bytes: writer.build())
    }

    static func set(_ key: String, _ value: GGUFValue) -> (inout [(String, GGUFValue)]) -> Void {
        { metadata in
            if let i = metadata.firstIndex(where: { $0.0 == key }) { metadata[i].1 = value } else { metadata.append((key, value)) }
        }
    }

    static func remove(_ key: String) -> (inout [(String, GGUFValue)]) -> Void {
        { metadata in metadata.removeAll { $0.0 == key } }
    }

    @Test func buildsFromMetadata() throws {
        let t = try Tokenizer(gguf: try Self.file())
        #expect(t.preTokenizerName == "smollm")
        #expect(t.bosID == 0 && t.eosID == 1 && t.unknownID == -1 && !t.addBOS)
        #expect(t.endOfGenerationIDs == [0, 1])
        #expect(t.encode(" the") == [try #require(t.id(of: "Ġthe"))])
        #expect(t.decode(t.encode("to the 42")) == "to the 42")
        let bos = try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.add_bos_token", .bool(true))))
        #expect(bos.encode(" the") == [0, try #require(bos.id(of: "Ġthe"))])
    }

    @Test func refusesUnknownOrMissingPreTokenizers() throws {
        for name in ["default", "gpt2", "whatever", ""] {
            #expect(throws: TokenizerError.unknownPreTokenizer(name)) {
                try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.pre", .string(name))))
            }
        }
        #expect(throws: TokenizerError.metadata(.missingKey("tokenizer.ggml.pre"))) {
            try Tokenizer(gguf: try Self.file(Self.remove("tokenizer.ggml.pre")))
        }
        #expect(TokenizerError.unknownPreTokenizer("x").description.contains("smollm"), "names what is supported")
    }

    @Test func refusesBadMerges() throws {
        #expect(throws: TokenizerError.metadata(.missingKey("tokenizer.ggml.merges"))) {
            try Tokenizer(gguf: try Self.file(Self.remove("tokenizer.ggml.merges")))
        }
        for bad in ["he", " h", "h ", ""] {
            #expect(throws: TokenizerError.malformedMerge(index: 1, entry: bad)) {
                try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.merges", .array(.string(["Ġ t", bad])))))
            }
        }
        // "q q" joins known pieces into an unknown one; "Ġ zz" names an unknown piece.
        for bad in ["q q", "Ġ zz", "Ġt h e"] {
            #expect(throws: TokenizerError.mergeOutsideVocabulary(index: 0, entry: bad)) {
                try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.merges", .array(.string([bad])))))
            }
        }
        #expect(throws: TokenizerError.metadata(.typeMismatch(key: "tokenizer.ggml.merges", expected: "an array of strings"))) {
            try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.merges", .array(.int32([1])))))
        }
    }

    @Test func refusesInconsistentArraysAndIDs() throws {
        #expect(throws: TokenizerError.self) {
            try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.token_type", .array(.int32([3, 3])))))
        }
        #expect(throws: TokenizerError.self) {
            try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.scores", .array(.float32([0])))))
        }
        #expect(throws: TokenizerError.invalidSpecialID(name: "eos", id: 9999)) {
            try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.eos_token_id", .uint32(9999))))
        }
        #expect(throws: TokenizerError.duplicatePiece(id: 2, firstID: 0)) {
            try Tokenizer(byteLevelTokens: ["a", "b", "a", "c"], types: [.normal, .normal, .normal, .normal],
                          merges: [], preTokenizer: "gpt-2", bosID: 0, eosID: 0)
        }
        #expect(throws: TokenizerError.unsupportedModel("t5")) {
            try Tokenizer(gguf: try Self.file(Self.set("tokenizer.ggml.model", .string("t5"))))
        }
    }
}
