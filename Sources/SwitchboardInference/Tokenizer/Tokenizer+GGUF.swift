extension Tokenizer {
    /// Builds the tokenizer stored in a GGUF file's `tokenizer.ggml.*` metadata.
    public init(gguf file: GGUFFile) throws(TokenizerError) {
        do {
            let model = try file.string("tokenizer.ggml.model")
            guard model == "llama" else { throw TokenizerError.unsupportedModel(model) }
            let tokens = try file.stringArray("tokenizer.ggml.tokens")
            let scores = try file.floatArray("tokenizer.ggml.scores")
            let types = try file.int32Array("tokenizer.ggml.token_type").map(TokenType.init(stored:))
            try self.init(
                tokens: tokens, scores: scores, types: types,
                bosID: try Self.id(file, "tokenizer.ggml.bos_token_id", default: 1),
                eosID: try Self.id(file, "tokenizer.ggml.eos_token_id", default: 2),
                unknownID: try Self.id(file, "tokenizer.ggml.unknown_token_id", default: 0),
                addBOS: try file.optionalBool("tokenizer.ggml.add_bos_token") ?? true,
                addSpacePrefix: try file.optionalBool("tokenizer.ggml.add_space_prefix") ?? true)
        } catch let error as GGUFError {
            throw .metadata(error)
        } catch let error as TokenizerError {
            throw error
        } catch {
            throw .inconsistentVocabulary("\(error)")
        }
    }

    /// SPM defaults from llama.cpp apply when a key is absent.
    private static func id(_ file: GGUFFile, _ key: String, default fallback: Int32) throws(GGUFError) -> Int32 {
        guard let value = try file.optionalInt(key) else { return fallback }
        guard let id = Int32(exactly: value) else { throw .typeMismatch(key: key, expected: "a token id") }
        return id
    }
}
