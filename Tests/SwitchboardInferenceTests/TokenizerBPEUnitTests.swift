import Testing
@testable import SwitchboardInference

/// A hand-made byte-level vocabulary where merge order, ties, byte fallback and special splitting
/// can be worked out by hand.
@Suite("Byte-level BPE with a tiny vocabulary")
struct TokenizerBPEUnitTests {
    static let specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool>"]

    /// The four specials (ids 0–3, `<tool>` user-defined), the 256 byte characters, then `extra`.
    static func make(
        _ extra: [String], merges: [String], pre: String = "gpt-2", dropping missing: Set<String> = []
    ) throws -> Tokenizer {
        let bytes = ByteLevelAlphabet.utf8OfByte.map { String(decoding: $0, as: UTF8.self) }.filter { !missing.contains($0) }
        let tokens = specials + bytes + extra
        let types = [TokenType.control, .control, .control, .userDefined] + [TokenType](repeating: .normal, count: tokens.count - 4)
        return try Tokenizer(byteLevelTokens: tokens, types: types, merges: merges, preTokenizer: pre, bosID: 1, eosID: 2)
    }

    func ids(_ t: Tokenizer, _ pieces: [String]) -> [Int32] { pieces.map { t.id(of: $0) ?? -99 } }

    @Test func mergesLowestRankFirst() throws {
        let bcFirst = try Self.make(["ab", "bc", "abc"], merges: ["b c", "a b", "a bc"])
        #expect(bcFirst.encode("abc") == ids(bcFirst, ["abc"]))
        #expect(bcFirst.encode("abb") == ids(bcFirst, ["ab", "b"]))
        let abFirst = try Self.make(["ab", "bc", "abc"], merges: ["a b", "b c", "a bc"])
        // "ab" wins, and no merge joins "ab" with "c".
        #expect(abFirst.encode("abc") == ids(abFirst, ["ab", "c"]))
    }

    @Test func tiesMergeLeftmostFirst() throws {
        let t = try Self.make(["aa", "aaa"], merges: ["a a", "aa a"])
        // "aaa": both pairs are the same merge; the left one goes first, then "aa" + "a".
        #expect(t.encode("aaa") == ids(t, ["aaa"]))
        #expect(t.encode("aaaa") == ids(t, ["aa", "aa"]))
        // "aaaaa": aa a a a, then aa aa a (rank 0 beats aa+a), then the only merge left makes aa aaa.
        #expect(t.encode("aaaaa") == ids(t, ["aa", "aaa"]))
    }

    @Test func bytesAreSpelledInTheGPT2Alphabet() throws {
        let t = try Self.make(["Ġa", "ĠaĠ"], merges: ["Ġ a"])
        #expect(t.encode(" a a") == ids(t, ["Ġa", "Ġa"]), "the pre-tokenizer keeps words apart")
        #expect(t.encode("\n") == ids(t, ["Ċ"]))
        #expect(t.decode(t.encode(" a\na")) == " a\na")
        // A character no merge covers stays as its bytes' characters, and decodes back.
        let e = t.encode("é")
        #expect(e == ids(t, ["Ã", "©"]))
        #expect(t.decode(e) == "é")
        #expect(ByteLevelAlphabet.scalarOfByte[0x20] == 0x120 && ByteLevelAlphabet.scalarOfByte[0x0A] == 0x10A)
        #expect(ByteLevelAlphabet.scalarOfByte[0xAD] == 0x143 && ByteLevelAlphabet.scalarOfByte[0x41] == 0x41)
    }

    @Test func aByteMissingFromTheVocabularyIsDroppedAsInLlamaCpp() throws {
        let t = try Self.make([], merges: [], dropping: ["z"])
        #expect(t.encode("aza") == ids(t, ["a", "a"]))
        #expect(t.byteTokenIDs[Int(UInt8(ascii: "z"))] == -1)
    }

    @Test func preTokenizersDecideWhatMayMerge() throws {
        let extra = ["12", "xyz"]
        let merges = ["1 2"]
        let merged = try Self.make(extra, merges: merges, pre: "gpt-2")
        #expect(merged.encode("12") == ids(merged, ["12"]))
        let smollm = try Self.make(extra, merges: merges, pre: "smollm")
        #expect(smollm.encode("12") == ids(smollm, ["1", "2"]), "smollm puts every digit alone")
        // Llama 3 takes a word that is a piece whole, without merges; gpt-2 needs the merges.
        let llama = try Self.make(extra, merges: merges, pre: "llama-bpe")
        #expect(llama.encode("xyz", addBOS: false) == ids(llama, ["xyz"]))
        #expect(llama.addBOS && llama.encode("xyz").first == 1, "llama-bpe adds BOS unless the file says otherwise")
        let gpt2 = try Self.make(extra, merges: merges, pre: "gpt-2")
        #expect(gpt2.encode("xyz") == ids(gpt2, ["x", "y", "z"]))
        #expect(!gpt2.addBOS && gpt2.encode("xyz", addBOS: true).first != 1)
    }

    @Test func specialPiecesSplitFirst() throws {
        let t = try Self.make(["ab"], merges: ["a b"])
        #expect(t.encode("<|im_start|>ab<|im_end|>", parseSpecial: true) == [1] + ids(t, ["ab"]) + [2])
        #expect(!t.encode("<|im_start|>ab").contains(1), "control pieces stay text without parseSpecial")
        #expect(t.encode("a<tool>b") == ids(t, ["a", "<tool>", "b"]), "user-defined pieces always split")
        #expect(t.decode([1] + ids(t, ["ab"]) + [2, 0]) == "ab")
        #expect(t.decode([1] + ids(t, ["ab"]) + [2], skipSpecial: false) == "<|im_start|>ab<|im_end|>")
        #expect(t.endOfGenerationIDs == [0, 2] && t.endOfTurnID == nil)
        #expect(t.unknownID == -1 && t.preTokenizerName == "gpt-2")
    }

    @Test func streamingHoldsBackCharactersSplitOverTokens() throws {
        let t = try Self.make([], merges: [])
        var decoder = StreamingDecoder(tokenizer: t)
        let euro = t.encode("€")
        #expect(euro.count == 3)
        #expect(decoder.append(euro[0]) == "" && decoder.append(euro[1]) == "")
        #expect(decoder.append(euro[2]) == "€")
        #expect(decoder.append(t.id(of: "a") ?? -1) == "a")
    }

    @Test func decodesPiecesOutsideTheAlphabetAsText() throws {
        // A hand-edited piece with characters outside GPT-2's alphabet reads as its own UTF-8.
        let t = try Self.make(["ĠЖ"], merges: [])
        #expect(t.decode([try #require(t.id(of: "ĠЖ"))]) == " Ж")
    }
}
