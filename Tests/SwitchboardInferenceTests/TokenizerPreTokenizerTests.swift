import Testing
@testable import SwitchboardInference

/// The pre-tokenizer scanners against the regexes they stand for (splits made with Python's `regex`
/// module, which HF tokenizers match; `smollm` first splits `\p{N}`). The same scanners agreed with
/// those regexes on 12,000 random strings of such fragments when this was written.
@Suite("Byte-level BPE pre-tokenizers")
struct TokenizerPreTokenizerTests {
    static let cases: [(String, [String: [String]])] = [
        ("Hello  world\t\tx  \n\n  y   ", [
            "gpt-2": ["Hello", " ", " world", "\t", "\t", "x", "  \n\n ", " y", "   "],
            "llama-bpe": ["Hello", " ", " world", "\t", "\tx", "  \n\n", " ", " y", "   "],
            "qwen2": ["Hello", " ", " world", "\t", "\tx", "  \n\n", " ", " y", "   "],
            "smollm": ["Hello", " ", " world", "\t", "\t", "x", "  \n\n ", " y", "   "],
        ]),
        ("I'M sure it'S fine, we'LL see", [
            "gpt-2": ["I", "'", "M", " sure", " it", "'", "S", " fine", ",", " we", "'", "LL", " see"],
            "llama-bpe": ["I", "'M", " sure", " it", "'S", " fine", ",", " we", "'LL", " see"],
            "qwen2": ["I", "'M", " sure", " it", "'S", " fine", ",", " we", "'LL", " see"],
            "smollm": ["I", "'", "M", " sure", " it", "'", "S", " fine", ",", " we", "'", "LL", " see"],
        ]),
        ("don't'll've'd'x", [
            "gpt-2": ["don", "'t", "'ll", "'ve", "'d", "'", "x"],
            "llama-bpe": ["don", "'t", "'ll", "'ve", "'d", "'x"],
            "qwen2": ["don", "'t", "'ll", "'ve", "'d", "'x"],
            "smollm": ["don", "'t", "'ll", "'ve", "'d", "'", "x"],
        ]),
        ("x²+½=٣ and Ⅻ①𝟗 1234567", [
            "gpt-2": ["x", "²", "+", "½", "=", "٣", " and", " Ⅻ①𝟗", " 1234567"],
            "llama-bpe": ["x", "²", "+", "½", "=", "٣", " and", " ", "Ⅻ①𝟗", " ", "123", "456", "7"],
            "qwen2": ["x", "²", "+", "½", "=", "٣", " and", " ", "Ⅻ", "①", "𝟗", " ", "1", "2", "3", "4", "5", "6", "7"],
            "smollm": ["x", "²", "+", "½", "=", "٣", " and", " ", "Ⅻ", "①", "𝟗", " ", "1", "2", "3", "4", "5", "6", "7"],
        ]),
        ("a\u{A0}b\u{3000}c\u{2028}d\u{85}e  \u{A0}f", [
            "gpt-2": ["a", "\u{A0}", "b", "\u{3000}", "c", "\u{2028}", "d", "\u{85}", "e", "  ", "\u{A0}", "f"],
            "llama-bpe": ["a", "\u{A0}b", "\u{3000}c", "\u{2028}d", "\u{85}e", "  ", "\u{A0}f"],
            "qwen2": ["a", "\u{A0}b", "\u{3000}c", "\u{2028}d", "\u{85}e", "  ", "\u{A0}f"],
            "smollm": ["a", "\u{A0}", "b", "\u{3000}", "c", "\u{2028}", "d", "\u{85}", "e", "  ", "\u{A0}", "f"],
        ]),
        ("foo!!\n\nbar?\r\n\r\n  baz", [
            "gpt-2": ["foo", "!!", "\n", "\n", "bar", "?", "\r\n\r\n ", " baz"],
            "llama-bpe": ["foo", "!!\n\n", "bar", "?\r\n\r\n", " ", " baz"],
            "qwen2": ["foo", "!!\n\n", "bar", "?\r\n\r\n", " ", " baz"],
            "smollm": ["foo", "!!", "\n", "\n", "bar", "?", "\r\n\r\n ", " baz"],
        ]),
        ("\u{A0}\u{A0}a \u{200B}b", [
            "gpt-2": ["\u{A0}", "\u{A0}", "a", " \u{200B}", "b"],
            "llama-bpe": ["\u{A0}", "\u{A0}a", " \u{200B}", "b"],
            "qwen2": ["\u{A0}", "\u{A0}a", " \u{200B}", "b"],
            "smollm": ["\u{A0}", "\u{A0}", "a", " \u{200B}", "b"],
        ]),
        ("e\u{301}t\u{301}e ß ﬁn", [
            "gpt-2": ["e", "\u{301}", "t", "\u{301}", "e", " ß", " ﬁn"],
            "llama-bpe": ["e", "\u{301}t", "\u{301}e", " ß", " ﬁn"],
            "qwen2": ["e", "\u{301}t", "\u{301}e", " ß", " ﬁn"],
            "smollm": ["e", "\u{301}", "t", "\u{301}", "e", " ß", " ﬁn"],
        ]),
        ("x \r\n y\t\n\tz", [
            "gpt-2": ["x", " \r\n", " y", "\t\n", "\t", "z"],
            "llama-bpe": ["x", " \r\n", " y", "\t\n", "\tz"],
            "qwen2": ["x", " \r\n", " y", "\t\n", "\tz"],
            "smollm": ["x", " \r\n", " y", "\t\n", "\t", "z"],
        ]),
        ("😀👍\u{1F3FD} 🇺🇸!! 中文, 日本語です。", [
            "gpt-2": ["😀👍\u{1F3FD}", " 🇺🇸!!", " 中文", ",", " 日本語です", "。"],
            "llama-bpe": ["😀👍\u{1F3FD}", " 🇺🇸!!", " 中文", ",", " 日本語です", "。"],
            "qwen2": ["😀👍\u{1F3FD}", " 🇺🇸!!", " 中文", ",", " 日本語です", "。"],
            "smollm": ["😀👍\u{1F3FD}", " 🇺🇸!!", " 中文", ",", " 日本語です", "。"],
        ]),    ]

    static func words(_ text: String, _ name: String) throws -> [String] {
        let pre = try PreTokenizer(named: name)
        var session = BPESession()
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            session.words(buffer, pre).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    @Test(arguments: ["gpt-2", "llama-bpe", "qwen2", "smollm"])
    func splitsLikeTheRegex(_ name: String) throws {
        for (text, expected) in Self.cases {
            #expect(try Self.words(text, name) == expected[name], "\(name): \(text.debugDescription)")
        }
    }

    @Test func aliasesAndEmptyText() throws {
        let llama3 = try PreTokenizer(named: "llama3")
        #expect(llama3.splits == [.llama3(maxDigits: 3)] && llama3.ignoresMerges && llama3.addsBOSByDefault)
        #expect(try Self.words("", "smollm").isEmpty)
        #expect(try PreTokenizer(named: "qwen2").splits == [.llama3(maxDigits: 1)])
        #expect(try PreTokenizer(named: "smollm").splits == [.eachNumber, .gpt2])
    }
}
