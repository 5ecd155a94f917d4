import Testing
@testable import SwitchboardInference

/// Building a tokenizer from GGUF metadata, using synthetic files.
@Suite("Tokenizer from GGUF metadata")
struct TokenizerMetadataTests {
    static let tokens = ["<unk>", "<s>", "</s>", "▁hi", "h", "i", "▁", "hi"]

    static func file(_ edit: (inout [(String, GGUFValue)]) -> Void = { _ in }) throws -> GGUFFile {
        var metadata: [(String, GGUFValue)] = [
            ("tokenizer.ggml.model", .string("llama")),
            ("tokenizer.ggml.tokens", .array(.string(tokens))),
            ("tokenizer.ggml.scores", .array(.float32([0, 0, 0, -1, -2, -2, -3, -1.5]))),
            ("tokenizer.ggml.token_type", .array(.int32([2, 3, 3, 1, 1, 1, 1, 1]))),
        ]
        edit(&metadata)
        var writer = GGUFTestWriter(metadata: metadata)
        return try GGUFFile(bytes: writer.build())
    }

    @Test func llamaDefaultsApplyWhenKeysAreAbsent() throws {
        let tokenizer = try Tokenizer(gguf: try Self.file())
        #expect(tokenizer.bosID == 1 && tokenizer.eosID == 2 && tokenizer.unknownID == 0)
        #expect(tokenizer.addBOS && tokenizer.addSpacePrefix)
        #expect(tokenizer.endOfTurnID == nil && tokenizer.endOfGenerationIDs == [2])
        // add_space_prefix defaults on: "hi" becomes "▁hi".
        #expect(tokenizer.encode("hi") == [1, 3])
        #expect(tokenizer.decode([1, 3]) == " hi")
    }

    @Test func explicitKeysOverrideDefaults() throws {
        let tokenizer = try Tokenizer(gguf: try Self.file {
            $0 += [("tokenizer.ggml.bos_token_id", .uint32(2)), ("tokenizer.ggml.eos_token_id", .uint32(1)),
                   ("tokenizer.ggml.add_bos_token", .bool(false)), ("tokenizer.ggml.add_space_prefix", .bool(false))]
        })
        #expect(tokenizer.bosID == 2 && tokenizer.eosID == 1)
        #expect(tokenizer.encode("hi") == [7])
        #expect(tokenizer.encode("hi h") == [7, 6, 4], "no ▁h piece, so ▁ and h stay apart")
    }

    @Test func rejectsUnusableMetadata() throws {
        #expect(throws: TokenizerError.unsupportedModel("bert")) {
            try Tokenizer(gguf: try Self.file { $0[0].1 = .string("bert") })
        }
        #expect(throws: TokenizerError.metadata(.missingKey("tokenizer.ggml.scores"))) {
            try Tokenizer(gguf: try Self.file { $0.remove(at: 2) })
        }
        #expect(throws: TokenizerError.self) {
            try Tokenizer(gguf: try Self.file { $0[2].1 = .array(.float32([0])) })
        }
        #expect(throws: TokenizerError.invalidSpecialID(name: "bos", id: 99)) {
            try Tokenizer(gguf: try Self.file { $0.append(("tokenizer.ggml.bos_token_id", .uint32(99))) })
        }
        #expect(throws: TokenizerError.self) {
            try Tokenizer(gguf: try Self.file { $0[1].1 = .array(.string(["a", "a", "b", "c", "d", "e", "f", "g"])) })
        }
    }
}
