import Testing
@testable import SwitchboardInference

/// A hand-made vocabulary where the merge order and byte fallback can be worked out by hand.
@Suite("Tokenizer with a tiny vocabulary")
struct TokenizerUnitTests {
    static func make(_ extra: [(String, Float, TokenType)], addSpacePrefix: Bool = false) throws -> Tokenizer {
        var entries: [(String, Float, TokenType)] = [
            ("<pad>", -1000, .control), ("<eos>", -1000, .control), ("<bos>", -1000, .control),
            ("<unk>", -1000, .control), ("<end_of_turn>", -1000, .control),
        ]
        entries += (0..<256).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return ("<0x" + (hex.count == 1 ? "0" : "") + hex + ">", 0, .byte)
        }
        entries += extra
        return try Tokenizer(tokens: entries.map(\.0), scores: entries.map(\.1), types: entries.map(\.2),
                             bosID: 2, eosID: 1, unknownID: 3, addSpacePrefix: addSpacePrefix)
    }

    static let basic: [(String, Float, TokenType)] = [
        ("a", -1, .normal), ("b", -1, .normal), ("c", -1, .normal), ("ab", -5, .normal), ("bc", -2, .normal),
        ("abc", -3, .normal), ("▁", -4, .normal), ("▁a", -3, .normal), ("\n", 0, .userDefined),
        ("\n\n", 0, .userDefined), ("xy", -1, .userDefined), ("xyz", -1, .userDefined), ("<ctl>", -1000, .control),
    ]

    func ids(_ tokenizer: Tokenizer, _ pieces: [String]) -> [Int32] { pieces.compactMap { tokenizer.id(of: $0) } }

    @Test func mergesHighestScoreFirst() throws {
        let t = try Self.make(Self.basic)
        // "bc" (-2) beats "ab" (-5); then "a"+"bc" = "abc" exists.
        #expect(t.encode("abc", addBOS: false) == ids(t, ["abc"]))
        // "ab" + "b": "bb" is unknown, so "ab" then "b".
        #expect(t.encode("abb", addBOS: false) == ids(t, ["ab", "b"]))
        #expect(t.encode("abc", addBOS: true) == [2] + ids(t, ["abc"]))
    }

    @Test func tiesMergeLeftmostFirst() throws {
        let t = try Self.make([("a", -1, .normal), ("aa", -1, .normal)])
        // "aaa": pairs (0,1) and (1,2) tie; the left one merges, leaving "aa" + "a".
        #expect(t.encode("aaa", addBOS: false) == ids(t, ["aa", "a"]))
        #expect(t.encode("aaaa", addBOS: false) == ids(t, ["aa", "aa"]))
    }

    @Test func spacesBecomeMarkers() throws {
        let t = try Self.make(Self.basic)
        #expect(t.encode(" a", addBOS: false) == ids(t, ["▁a"]))
        #expect(t.encode("b a", addBOS: false) == ids(t, ["b", "▁a"]))
        let prefixed = try Self.make(Self.basic, addSpacePrefix: true)
        #expect(prefixed.encode("a", addBOS: false) == ids(prefixed, ["▁a"]))
    }

    @Test func unknownCharactersFallBackToBytes() throws {
        let t = try Self.make(Self.basic)
        let expected: [Int32] = ids(t, ["a"]) + Array("é".utf8).map { t.byteTokenIDs[Int($0)] } + ids(t, ["b"])
        #expect(t.encode("aéb", addBOS: false) == expected)
        #expect(t.decode(expected) == "aéb")
        #expect(t.byteTokenIDs[0x41] == t.id(of: "<0x41>"))
    }

    @Test func userDefinedPiecesSplitFirstLongestFirst() throws {
        let t = try Self.make(Self.basic)
        #expect(t.encode("a\n\n\nb", addBOS: false) == ids(t, ["a", "\n\n", "\n", "b"]))
        #expect(t.encode("axyzb", addBOS: false) == ids(t, ["a", "xyz", "b"]))
        // Control pieces only with parseSpecial.
        #expect(t.encode("<ctl>a", addBOS: false, parseSpecial: true) == ids(t, ["<ctl>", "a"]))
        #expect(t.encode("<ctl>a", addBOS: false).first != t.id(of: "<ctl>"))
    }

    @Test func partitionFollowsLlamaOrderNotLeftToRight() throws {
        // "wxyz": the longer "xyz" is claimed first, so "wx" can no longer match.
        let t = try Self.make(Self.basic + [("w", -1, .normal), ("wx", -1, .userDefined)])
        #expect(t.encode("wxyz", addBOS: false) == ids(t, ["w", "xyz"]))
        #expect(t.encode("wxa", addBOS: false) == ids(t, ["wx", "a"]))
    }

    @Test func decodeRules() throws {
        let t = try Self.make(Self.basic + [("[PAD9]", 0, .unused)])
        let sequence = [2] + ids(t, ["▁a", "\n", "<ctl>", "[PAD9]"]) + [1, -5, 99_999]
        #expect(t.decode(sequence) == " a\n")
        #expect(t.decode(sequence, skipSpecial: false) == "<bos> a\n<ctl><eos>")
        #expect(t.endOfTurnID == 4 && t.endOfGenerationIDs == [1, 4])
        // Invalid UTF-8 from byte tokens decodes with replacement characters, never traps.
        #expect(t.decode([t.byteTokenIDs[0xFF], t.byteTokenIDs[0x41]]) == "\u{FFFD}A")
    }

    @Test func streamingDecoderHoldsBackPartialCharacters() throws {
        let t = try Self.make(Self.basic)
        var decoder = StreamingDecoder(tokenizer: t)
        let euro = Array("€".utf8).map { t.byteTokenIDs[Int($0)] }
        #expect(decoder.append(t.id(of: "a") ?? -1) == "a")
        #expect(decoder.append(euro[0]) == "")
        #expect(decoder.append(euro[1]) == "")
        #expect(decoder.pendingByteCount == 2)
        #expect(decoder.append(euro[2]) == "€")
        // A truncated sequence is flushed as U+FFFD; a stray continuation byte is released at once.
        _ = decoder.append(euro[0])
        #expect(decoder.flush() == "\u{FFFD}")
        #expect(decoder.append(t.byteTokenIDs[0x80]) == "\u{FFFD}")
        #expect(decoder.flush() == "")
    }

    @Test func rejectsInconsistentVocabularies() {
        #expect(throws: TokenizerError.self) {
            try Tokenizer(tokens: ["a"], scores: [], types: [.normal], bosID: 0, eosID: 0, unknownID: 0)
        }
        #expect(throws: TokenizerError.duplicatePiece(id: 1, firstID: 0)) {
            try Tokenizer(tokens: ["a", "a"], scores: [0, 0], types: [.normal, .normal], bosID: 0, eosID: 0, unknownID: 0)
        }
        #expect(throws: TokenizerError.invalidSpecialID(name: "bos", id: 5)) {
            try Tokenizer(tokens: ["a"], scores: [0], types: [.normal], bosID: 5, eosID: 0, unknownID: 0)
        }
    }
}
