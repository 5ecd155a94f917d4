/// A tokenizer for the two GGUF vocabulary kinds llama.cpp calls SPM and BPE, reproducing its
/// tokenization: special pieces are split out first (longest first), and the text between them goes
/// through the vocabulary's own algorithm (see `Algorithm`). Built from raw arrays or from a GGUF file
/// (`Tokenizer(gguf:)`), which picks the algorithm from `tokenizer.ggml.model`.
public struct Tokenizer: Sendable {
    /// How raw text between special pieces becomes ids.
    enum Algorithm: Sendable {
        /// SentencePiece (`llama`): spaces as `▁`, merge by piece score, `<0xNN>` byte fallback.
        case sentencePiece
        /// Byte-level BPE (`gpt2`): pre-tokenize, spell bytes in GPT-2's alphabet, merge by rank.
        case byteLevelBPE(ByteLevelBPE)
    }

    let algorithm: Algorithm
    let pieces: PieceTable
    let scores: [Float]
    let types: [TokenType]
    /// The token standing for each byte. SentencePiece: `<0xNN>`, else the single-byte piece, else
    /// unk. Byte-level BPE: the piece spelling the byte in GPT-2's alphabet, or -1 when missing.
    let byteTokenIDs: [Int32]
    let specials: SpecialTokenIndex

    public let bosID: Int32
    public let eosID: Int32
    /// The unknown piece; -1 when the vocabulary names none (byte-level BPE never produces one).
    public let unknownID: Int32
    /// `<end_of_turn>` when the vocabulary has it.
    public let endOfTurnID: Int32?
    /// Tokens that end generation: EOS and each of `endOfGenerationPieces` the vocabulary has.
    public let endOfGenerationIDs: Set<Int32>
    /// Whether `encode(addBOS: true)` really adds BOS: the vocabulary's own choice (false for SmolLM2).
    public let addBOS: Bool
    public let addSpacePrefix: Bool

    /// Pieces that end a turn or a document in the chat formats we serve (Gemma, ChatML, Llama 3).
    static let endOfGenerationPieces = ["<end_of_turn>", "<|im_end|>", "<|endoftext|>", "<|eot_id|>"]

    public var vocabularySize: Int { pieces.count }

    /// Builds a SentencePiece tokenizer from raw vocabulary arrays (what the GGUF stores, or a
    /// hand-made vocab).
    public init(
        tokens: [String], scores: [Float], types: [TokenType],
        bosID: Int32, eosID: Int32, unknownID: Int32,
        addBOS: Bool = true, addSpacePrefix: Bool = false
    ) throws(TokenizerError) {
        guard scores.count == tokens.count, types.count == tokens.count else {
            throw .inconsistentVocabulary("\(tokens.count) tokens but \(scores.count) scores and \(types.count) types")
        }
        let table = try Self.pieceTable(tokens)
        let byteIDs: [Int32] = (0..<256).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            let id = table.lookup(Array(("<0x" + (hex.count == 1 ? "0" + hex : hex) + ">").utf8))
            if id != PieceTable.notFound { return id }
            let single = table.lookup([UInt8(byte)])
            return single != PieceTable.notFound ? single : unknownID
        }
        try self.init(
            algorithm: .sentencePiece, pieces: table, scores: scores, types: types, byteTokenIDs: byteIDs,
            bosID: bosID, eosID: eosID, unknownID: unknownID, addBOS: addBOS, addSpacePrefix: addSpacePrefix)
    }

    static func pieceTable(_ tokens: [String]) throws(TokenizerError) -> PieceTable {
        guard tokens.count < Int(Int32.max) else { throw .inconsistentVocabulary("too many tokens") }
        return try PieceTable(pieces: tokens)
    }

    /// What both algorithms share: checks the special ids and finds the end-of-generation pieces,
    /// which llama.cpp forces to CONTROL (so they are split out only when parsing specials, and
    /// dropped from decoded text).
    init(
        algorithm: Algorithm, pieces: PieceTable, scores: [Float], types: [TokenType], byteTokenIDs: [Int32],
        bosID: Int32, eosID: Int32, unknownID: Int32?, addBOS: Bool, addSpacePrefix: Bool
    ) throws(TokenizerError) {
        let named = [("bos", bosID), ("eos", eosID)] + (unknownID.map { [("unknown", $0)] } ?? [])
        for (name, id) in named where id < 0 || Int(id) >= pieces.count {
            throw .invalidSpecialID(name: name, id: Int(id))
        }
        var types = types
        var endOfGeneration: Set<Int32> = [eosID]
        var endOfTurn: Int32?
        for name in Self.endOfGenerationPieces {
            let id = pieces.lookup(Array(name.utf8))
            guard id != PieceTable.notFound else { continue }
            types[Int(id)] = .control
            endOfGeneration.insert(id)
            if name == "<end_of_turn>" { endOfTurn = id }
        }
        self.algorithm = algorithm
        self.pieces = pieces
        self.scores = scores
        self.types = types
        self.byteTokenIDs = byteTokenIDs
        self.bosID = bosID
        self.eosID = eosID
        self.unknownID = unknownID ?? -1
        self.addBOS = addBOS
        self.addSpacePrefix = addSpacePrefix
        endOfTurnID = endOfTurn
        endOfGenerationIDs = endOfGeneration
        specials = SpecialTokenIndex(pieces: pieces, types: types)
    }

    /// The id of the piece spelled exactly `piece` (vocabulary text: `▁the` in SentencePiece,
    /// `Ġthe` in byte-level BPE).
    public func id(of piece: String) -> Int32? {
        let id = pieces.lookup(Array(piece.utf8))
        return id == PieceTable.notFound ? nil : id
    }

    /// The stored piece text of `id` (vocabulary spelling), or nil when out of range.
    public func piece(_ id: Int32) -> String? {
        guard isValid(id) else { return nil }
        return String(decoding: pieces.bytes(of: id), as: UTF8.self)
    }

    public func type(of id: Int32) -> TokenType? { isValid(id) ? types[Int(id)] : nil }

    public func score(of id: Int32) -> Float? { isValid(id) ? scores[Int(id)] : nil }

    func isValid(_ id: Int32) -> Bool { id >= 0 && Int(id) < pieces.count }
}
