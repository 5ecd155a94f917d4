extension Tokenizer {
    /// Builds the tokenizer stored in a GGUF file's `tokenizer.ggml.*` metadata: SentencePiece for
    /// `tokenizer.ggml.model = llama`, byte-level BPE for `gpt2`; any other model is refused by name.
    public init(gguf file: GGUFFile) throws(TokenizerError) {
        do {
            let model = try file.string("tokenizer.ggml.model")
            guard model == "llama" || model == "gpt2" else { throw TokenizerError.unsupportedModel(model) }
            let tokens = try file.stringArray("tokenizer.ggml.tokens")
            let types = try file.int32Array("tokenizer.ggml.token_type").map(TokenType.init(stored:))
            if model == "llama" {
                try self.init(
                    tokens: tokens, scores: try file.floatArray("tokenizer.ggml.scores"), types: types,
                    bosID: try Self.id(file, "tokenizer.ggml.bos_token_id") ?? 1,
                    eosID: try Self.id(file, "tokenizer.ggml.eos_token_id") ?? 2,
                    unknownID: try Self.id(file, "tokenizer.ggml.unknown_token_id") ?? 0,
                    addBOS: try file.optionalBool("tokenizer.ggml.add_bos_token") ?? true,
                    addSpacePrefix: try file.optionalBool("tokenizer.ggml.add_space_prefix") ?? true)
            } else {
                // The pre-tokenizer is checked first: a file without one cannot be tokenized right.
                let pre = try file.string("tokenizer.ggml.pre")
                _ = try PreTokenizer(named: pre)
                let hasScores = file.metadata["tokenizer.ggml.scores"] != nil
                try self.init(
                    byteLevelTokens: tokens, types: types, merges: try file.stringArray("tokenizer.ggml.merges"),
                    preTokenizer: pre, scores: hasScores ? try file.floatArray("tokenizer.ggml.scores") : nil,
                    bosID: try Self.id(file, "tokenizer.ggml.bos_token_id") ?? 11,
                    eosID: try Self.id(file, "tokenizer.ggml.eos_token_id") ?? 11,
                    unknownID: try Self.id(file, "tokenizer.ggml.unknown_token_id"),
                    addBOS: try file.optionalBool("tokenizer.ggml.add_bos_token"))
            }
        } catch let error as GGUFError {
            throw .metadata(error)
        } catch let error as TokenizerError {
            throw error
        } catch {
            throw .inconsistentVocabulary("\(error)")
        }
    }

    /// A token id key, or nil when absent; the caller applies llama.cpp's default for the model
    /// (SentencePiece: bos 1, eos 2, unk 0; BPE: bos and eos 11, no unk).
    private static func id(_ file: GGUFFile, _ key: String) throws(GGUFError) -> Int32? {
        guard let value = try file.optionalInt(key) else { return nil }
        guard let id = Int32(exactly: value) else { throw .typeMismatch(key: key, expected: "a token id") }
        return id
    }
}
