/// A SentencePiece ("llama"/SPM) tokenizer that reproduces llama.cpp's tokenization of GGUF
/// vocabularies: special pieces are split out first (longest first), the rest is merged by piece
/// score, and characters outside the vocabulary fall back to `<0xNN>` byte tokens.
public struct Tokenizer: Sendable {
    let pieces: PieceTable
    let scores: [Float]
    let types: [TokenType]
    /// Ids of `<0x00>`…`<0xFF>` (or the single-byte piece, or unk when neither exists).
    let byteTokenIDs: [Int32]
    let specials: SpecialTokenIndex

    public let bosID: Int32
    public let eosID: Int32
    public let unknownID: Int32
    /// `<end_of_turn>` when the vocabulary has it.
    public let endOfTurnID: Int32?
    /// Tokens that end generation: EOS and end-of-turn.
    public let endOfGenerationIDs: Set<Int32>
    public let addBOS: Bool
    public let addSpacePrefix: Bool

    public var vocabularySize: Int { pieces.count }

    /// Builds a tokenizer from raw vocabulary arrays (what the GGUF stores, or a hand-made vocab).
    public init(
        tokens: [String], scores: [Float], types: [TokenType],
        bosID: Int32, eosID: Int32, unknownID: Int32,
        addBOS: Bool = true, addSpacePrefix: Bool = false
    ) throws(TokenizerError) {
        guard scores.count == tokens.count, types.count == tokens.count else {
            throw .inconsistentVocabulary("\(tokens.count) tokens but \(scores.count) scores and \(types.count) types")
        }
        guard tokens.count < Int(Int32.max) else { throw .inconsistentVocabulary("too many tokens") }
        for (name, id) in [("bos", bosID), ("eos", eosID), ("unknown", unknownID)] where id < 0 || Int(id) >= tokens.count {
            throw .invalidSpecialID(name: name, id: Int(id))
        }
        let table = try PieceTable(pieces: tokens)
        var types = types
        var endOfTurn: Int32?
        let eot = table.lookup(Array("<end_of_turn>".utf8))
        if eot != PieceTable.notFound {
            endOfTurn = eot
            types[Int(eot)] = .control  // llama.cpp forces the detected EOT token to CONTROL
        }
        pieces = table
        self.scores = scores
        self.types = types
        self.bosID = bosID
        self.eosID = eosID
        self.unknownID = unknownID
        self.addBOS = addBOS
        self.addSpacePrefix = addSpacePrefix
        endOfTurnID = endOfTurn
        endOfGenerationIDs = Set([eosID] + (endOfTurn.map { [$0] } ?? []))
        byteTokenIDs = (0..<256).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            let name = "<0x" + (hex.count == 1 ? "0" + hex : hex) + ">"
            let id = table.lookup(Array(name.utf8))
            if id != PieceTable.notFound { return id }
            let single = table.lookup([UInt8(byte)])
            return single != PieceTable.notFound ? single : unknownID
        }
        specials = SpecialTokenIndex(pieces: table, types: types)
    }

    /// The id of the piece spelled exactly `piece` (SentencePiece text, e.g. "▁the").
    public func id(of piece: String) -> Int32? {
        let id = pieces.lookup(Array(piece.utf8))
        return id == PieceTable.notFound ? nil : id
    }

    /// The stored piece text of `id` (with ▁ for spaces), or nil when out of range.
    public func piece(_ id: Int32) -> String? {
        guard isValid(id) else { return nil }
        return String(decoding: pieces.bytes(of: id), as: UTF8.self)
    }

    public func type(of id: Int32) -> TokenType? { isValid(id) ? types[Int(id)] : nil }

    public func score(of id: Int32) -> Float? { isValid(id) ? scores[Int(id)] : nil }

    func isValid(_ id: Int32) -> Bool { id >= 0 && Int(id) < pieces.count }
}
