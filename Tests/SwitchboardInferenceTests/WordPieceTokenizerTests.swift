import Foundation
import Testing
@testable import SwitchboardInference

@Suite("WordPiece tokenizer")
struct WordPieceTokenizerTests {
    @Test("token ids identical to Hugging Face tokenizers on every golden case")
    func golden() throws {
        let tokenizer = try MiniLMFixture.tokenizer.get()
        #expect(MiniLMFixture.cases.count == 21)
        for c in MiniLMFixture.cases {
            #expect(tokenizer.encode(c.text) == c.ids, "\(c.text.prefix(60))")
        }
    }

    @Test("normalizer: control characters dropped, whitespace kinds become spaces, CJK isolated, accents stripped")
    func normalizer() {
        func words(_ s: String) -> [String] { BertNormalizer.words(s).map { String(String.UnicodeScalarView($0)) } }
        #expect(words("a\u{0}b\u{200B}c\u{FFFD}d\u{7}e") == ["abcde"])
        #expect(words("x\u{3000}y\u{A0}z\tw\r\nv") == ["x", "y", "z", "w", "v"])
        #expect(words("東京abc") == ["東", "京", "abc"])
        #expect(words("ひらがな") == ["ひらかな"])  // kana are not CJK ideographs: one word; the dakuten (Mn after NFD) goes
        #expect(words("Crème BRÛLÉE Ångström") == ["creme", "brulee", "angstrom"])
        #expect(words("don't-stop…now¿") == ["don", "'", "t", "-", "stop", "…", "now", "¿"])
        #expect(words("a$b+c^d|e~f`g") == ["a", "$", "b", "+", "c", "^", "d", "|", "e", "~", "f", "`", "g"])
        #expect(words("€5 ©x") == ["€5", "©x"])  // non-ASCII symbols (Sc, So) are not punctuation
    }

    @Test("greedy longest match with ## continuations; unknown parts and over-long words become one [UNK]")
    func wordPiece() throws {
        let t = try WordPieceTokenizer(pieces: ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##believ", "##able", "u", "##n", "a"],
                                       specials: ["[CLS]", "[SEP]"])
        #expect(t.encode("unbelievable") == [2, 4, 5, 6, 3])
        #expect(t.encode("unbelievablex a") == [2, 1, 9, 3])
        #expect(t.encode(String(repeating: "a", count: 101) + " a") == [2, 1, 9, 3])
        #expect(t.encode("a [SEP] a") == [2, 9, 3, 9, 3])
        #expect(t.encode("a [sep] a") == [2, 9, 1, 1, 1, 9, 3])  // not the special token: "[", "sep", "]"
    }

    @Test("truncation keeps [CLS] and [SEP] within maxLength")
    func truncation() throws {
        let t = try MiniLMFixture.tokenizer.get()
        let long = String(repeating: "word ", count: 600)
        let ids = t.encode(long)
        #expect(ids.count == 256)
        #expect(ids.first == t.cls && ids.last == t.sep)
        #expect(t.encode(long, maxLength: 5).count == 5)
        #expect(t.encode("", maxLength: 256) == [t.cls, t.sep])
    }

    @Test("refuses malformed tokenizer files")
    func malformed() {
        #expect(throws: TokenizerError.self) { try WordPieceTokenizer(tokenizerJSON: Data("{}".utf8)) }
        #expect(throws: TokenizerError.unsupportedModel("BPE")) {
            try WordPieceTokenizer(tokenizerJSON: Data(#"{"model": {"type": "BPE", "vocab": {}}}"#.utf8))
        }
        #expect(throws: TokenizerError.self) {  // id outside the vocabulary
            try WordPieceTokenizer(tokenizerJSON: Data(#"{"model": {"type": "WordPiece", "vocab": {"[CLS]": 0, "[SEP]": 7}}}"#.utf8))
        }
        #expect(throws: TokenizerError.self) {  // no [UNK]
            try WordPieceTokenizer(tokenizerJSON: Data(#"{"model": {"type": "WordPiece", "vocab": {"[CLS]": 0, "[SEP]": 1}}}"#.utf8))
        }
    }
}
