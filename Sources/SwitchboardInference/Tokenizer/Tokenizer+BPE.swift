extension Tokenizer {
    /// Builds a byte-level BPE tokenizer (GGUF `tokenizer.ggml.model = gpt2`) from raw vocabulary
    /// arrays: `merges` are `"left right"` in rank order, `preTokenizer` is a `tokenizer.ggml.pre`
    /// name (`smollm`, `gpt-2`, `llama-bpe`, `qwen2`, …). `addBOS` nil takes the pre-tokenizer's default
    /// (llama.cpp: true for Llama 3, false otherwise).
    public init(
        byteLevelTokens tokens: [String], types: [TokenType], merges: [String], preTokenizer: String,
        scores: [Float]? = nil, bosID: Int32, eosID: Int32, unknownID: Int32? = nil, addBOS: Bool? = nil
    ) throws(TokenizerError) {
        guard types.count == tokens.count, scores.map({ $0.count == tokens.count }) ?? true else {
            throw .inconsistentVocabulary(
                "\(tokens.count) tokens but \(types.count) types and \(scores.map { "\($0.count)" } ?? "no") scores")
        }
        let pre = try PreTokenizer(named: preTokenizer)
        let table = try Self.pieceTable(tokens)
        let bpe = ByteLevelBPE(preTokenizer: pre, merges: try BPEMergeTable(merges: merges, pieces: table))
        let byteIDs = ByteLevelAlphabet.utf8OfByte.map { spelling in
            let id = table.lookup(spelling)
            return id == PieceTable.notFound ? -1 : id
        }
        try self.init(
            algorithm: .byteLevelBPE(bpe), pieces: table,
            scores: scores ?? [Float](repeating: 0, count: tokens.count), types: types, byteTokenIDs: byteIDs,
            bosID: bosID, eosID: eosID, unknownID: unknownID, addBOS: addBOS ?? pre.addsBOSByDefault,
            addSpacePrefix: false)
    }

    /// The `tokenizer.ggml.pre` name of a byte-level BPE vocabulary; nil for SentencePiece.
    public var preTokenizerName: String? {
        if case .byteLevelBPE(let bpe) = algorithm { bpe.preTokenizer.name } else { nil }
    }
}
