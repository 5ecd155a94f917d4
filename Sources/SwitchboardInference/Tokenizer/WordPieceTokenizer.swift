import Foundation

/// BERT's WordPiece tokenizer (all-MiniLM-L6-v2 and other sentence encoders), from a `tokenizer.json`
/// or from a llama.cpp `bert` GGUF vocabulary.
///
/// Each word from `BertNormalizer` is cut greedily into the longest vocabulary pieces from the left,
/// later pieces written with the `##` prefix; a word with a part that no piece covers, or longer than
/// 100 characters, becomes one `[UNK]`. The sequence is `[CLS]` pieces… `[SEP]`, truncated to
/// `maxLength` ids. Added special tokens (`[CLS]`, `[SEP]`, …) written in the input are recognized as
/// themselves before normalization, as Hugging Face `tokenizers` does.
public struct WordPieceTokenizer: Sendable {
    public let vocabularySize: Int
    public let cls: Int32, sep: Int32, unk: Int32
    /// Whole-word pieces and `##` continuation pieces, keyed without the prefix.
    private let initial: [String: Int32]
    private let continuation: [String: Int32]
    private let specials: [(String, Int32)]
    /// The longest piece, in scalars: no match is tried past it.
    private let longestPiece: Int
    let maxWordCharacters = 100

    /// `pieces[id]` in the `##` convention; `specials` recognized in raw text.
    init(pieces: [String], specials: [String], unknown: String = "[UNK]") throws(TokenizerError) {
        var initial: [String: Int32] = [:], continuation: [String: Int32] = [:]
        var longest = 1
        for (index, piece) in pieces.enumerated() {
            let id = Int32(index)
            if piece.hasPrefix("##"), piece.count > 2 {
                let body = String(piece.dropFirst(2))
                if let first = continuation[body] { throw .duplicatePiece(id: id, firstID: first) }
                continuation[body] = id
                longest = max(longest, body.unicodeScalars.count)
            } else {
                if let first = initial[piece] { throw .duplicatePiece(id: id, firstID: first) }
                initial[piece] = id
                longest = max(longest, piece.unicodeScalars.count)
            }
        }
        func id(_ name: String) throws(TokenizerError) -> Int32 {
            guard let id = initial[name] else { throw .inconsistentVocabulary("no \(name) token") }
            return id
        }
        cls = try id("[CLS]"); sep = try id("[SEP]"); unk = try id(unknown)
        self.initial = initial
        self.continuation = continuation
        self.specials = specials.compactMap { name in initial[name].map { (name, $0) } }.sorted { $0.0.count > $1.0.count }
        longestPiece = longest
        vocabularySize = pieces.count
    }

    /// From a Hugging Face `tokenizer.json` whose model is WordPiece with the `##` prefix.
    public init(tokenizerJSON data: Data) throws(TokenizerError) {
        let file: TokenizerJSON
        do { file = try JSONDecoder().decode(TokenizerJSON.self, from: data) } catch {
            throw .inconsistentVocabulary("tokenizer.json is not a WordPiece tokenizer file")
        }
        guard file.model.type == "WordPiece" else { throw .unsupportedModel(file.model.type) }
        guard (file.model.continuingSubwordPrefix ?? "##") == "##" else {
            throw .inconsistentVocabulary("continuing_subword_prefix is not ##")
        }
        var pieces = [String?](repeating: nil, count: file.model.vocab.count)
        for (piece, id) in file.model.vocab {
            guard id >= 0, id < pieces.count, pieces[id] == nil else {
                throw .inconsistentVocabulary("token id \(id) is outside 0..<\(pieces.count) or repeated")
            }
            pieces[id] = piece
        }
        let specials = (file.addedTokens ?? []).filter { $0.special ?? false }.map(\.content)
        try self.init(pieces: pieces.map { $0 ?? "" }, specials: specials, unknown: file.model.unkToken ?? "[UNK]")
    }

    /// From a llama.cpp `bert` GGUF: pieces are stored with a phantom space (`▁word` starts a word, a
    /// bare piece continues one, `[…]` are special).
    public init(gguf file: GGUFFile) throws(TokenizerError) {
        let model: String, tokens: [String]
        do {
            model = try file.string("tokenizer.ggml.model")
            tokens = try file.stringArray("tokenizer.ggml.tokens")
        } catch { throw .metadata(error) }
        guard model == "bert" else { throw .unsupportedModel(model) }
        let pieces = tokens.map { token -> String in
            if token.hasPrefix("[") && token.hasSuffix("]") { return token }
            if token.hasPrefix("\u{2581}") { return String(token.dropFirst()) }
            return "##" + token
        }
        try self.init(pieces: pieces, specials: ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    }

    /// `[CLS]` pieces… `[SEP]`, at most `maxLength` ids (≥ 2).
    public func encode(_ text: String, maxLength: Int = 256) -> [Int32] {
        let budget = max(0, maxLength - 2)
        var ids: [Int32] = [cls]
        for (segment, special) in segments(text) {
            if ids.count - 1 >= budget { break }
            if let special { ids.append(special); continue }
            for word in BertNormalizer.words(segment) {
                if ids.count - 1 >= budget { break }
                pieces(of: word, into: &ids)
            }
        }
        if ids.count - 1 > budget { ids.removeLast(ids.count - 1 - budget) }
        ids.append(sep)
        return ids
    }

    /// Greedy longest-match-first over one word's scalars.
    func pieces(of word: [Unicode.Scalar], into ids: inout [Int32]) {
        guard word.count <= maxWordCharacters else { ids.append(unk); return }
        var found: [Int32] = []
        var start = 0
        while start < word.count {
            var end = min(word.count, start + longestPiece)
            var match: Int32?
            while end > start {
                var piece = String.UnicodeScalarView()
                piece.append(contentsOf: word[start..<end])
                if let id = (start == 0 ? initial : continuation)[String(piece)] { match = id; break }
                end -= 1
            }
            guard let match else { ids.append(unk); return }
            found.append(match)
            start = end
        }
        ids.append(contentsOf: found)
    }

    /// The text cut around added special tokens written literally (`nil`: ordinary text).
    private func segments(_ text: String) -> [(String, Int32?)] {
        guard !specials.isEmpty, text.contains("[") else { return [(text, nil)] }
        var out: [(String, Int32?)] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            let tail = rest[open...]
            if let (name, id) = specials.first(where: { tail.hasPrefix($0.0) }) {
                out.append((String(rest[..<open]), nil))
                out.append((name, id))
                rest = tail.dropFirst(name.count)
            } else {
                out.append((String(rest[...open]), nil))
                rest = rest[rest.index(after: open)...]
            }
        }
        out.append((String(rest), nil))
        return out
    }
}

/// The parts of `tokenizer.json` WordPiece needs.
private struct TokenizerJSON: Decodable {
    struct Model: Decodable {
        let type: String
        let vocab: [String: Int]
        let unkToken: String?
        let continuingSubwordPrefix: String?
        enum CodingKeys: String, CodingKey {
            case type, vocab, unkToken = "unk_token", continuingSubwordPrefix = "continuing_subword_prefix"
        }
    }
    struct Added: Decodable {
        let content: String
        let special: Bool?
    }
    let model: Model
    let addedTokens: [Added]?
    enum CodingKeys: String, CodingKey { case model, addedTokens = "added_tokens" }
}
