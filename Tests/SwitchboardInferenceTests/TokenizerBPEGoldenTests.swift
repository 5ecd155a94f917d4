import Foundation
import Testing
@testable import SwitchboardInference

/// The real SmolLM2 vocabulary (byte-level BPE, pre-tokenizer `smollm`) against llama.cpp's
/// tokenization (`Tests/Fixtures/golden/smollm2`).
@Suite("Byte-level BPE tokenizer on the real model", .requiresSmolLM2Model)
struct TokenizerBPEGoldenTests {
    static func golden() throws -> TokenizerGoldenTests.Golden {
        let url = SmolLM2TestModel.goldenDirectory.appendingPathComponent("tokenizer_public.json")
        return try JSONDecoder().decode(TokenizerGoldenTests.Golden.self, from: Data(contentsOf: url))
    }

    @Test func matchesEveryGoldenCase() throws {
        let tokenizer = try SmolLM2TestModel.tokenizer.get()
        let golden = try Self.golden()
        #expect(golden.cases.count >= 18)
        #expect(golden.cases.contains { $0.special == true })
        var identical = 0
        for item in golden.cases {
            let ids = tokenizer.encode(item.text, addBOS: true, parseSpecial: item.special ?? false)
            #expect(ids == item.ids, "\(item.text.prefix(60).debugDescription)")
            if ids == item.ids { identical += 1 }
        }
        #expect(identical == golden.cases.count)
    }

    @Test func decodeInvertsEncodeOnTheCorpus() throws {
        let tokenizer = try SmolLM2TestModel.tokenizer.get()
        let corpus = try String(
            contentsOf: SmolLM2TestModel.goldenDirectory.appendingPathComponent("corpus_public.txt"), encoding: .utf8)
        let lines = corpus.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) + [corpus]
        for line in lines {
            #expect(tokenizer.decode(tokenizer.encode(line)) == line, "\(line.prefix(60).debugDescription)")
        }
        let chat = "<|im_start|>user\nHi<|im_end|>\n"
        let ids = tokenizer.encode(chat, parseSpecial: true)
        #expect(ids.first == 1, "no BOS: the prompt starts with <|im_start|>")
        #expect(tokenizer.decode(ids, skipSpecial: false) == chat)
        #expect(tokenizer.decode(ids) == "user\nHi\n")
    }

    @Test func specialIDsAndPieces() throws {
        let tokenizer = try SmolLM2TestModel.tokenizer.get()
        #expect(tokenizer.vocabularySize == 49_152)
        #expect(tokenizer.preTokenizerName == "smollm")
        #expect(tokenizer.bosID == 1 && tokenizer.eosID == 2 && tokenizer.unknownID == 0)
        #expect(!tokenizer.addBOS && !tokenizer.addSpacePrefix)
        #expect(tokenizer.endOfTurnID == nil)
        #expect(tokenizer.endOfGenerationIDs == [0, 2])
        #expect(tokenizer.id(of: "<|im_start|>") == 1)
        #expect(tokenizer.id(of: "Ġthe") != nil)
        #expect(tokenizer.type(of: 2) == .control)
        #expect(tokenizer.pieceBytes(tokenizer.id(of: "Ċ") ?? -1) == [0x0A])
        #expect(tokenizer.pieceBytes(tokenizer.id(of: "Ġthe") ?? -1) == Array(" the".utf8))
        // Control tokens are plain text unless special parsing is on; BOS is never added.
        #expect(tokenizer.encode("<|im_end|>", addBOS: true).count > 1)
        #expect(tokenizer.encode("<|im_end|>", addBOS: true, parseSpecial: true) == [2])
        #expect(tokenizer.encode("", addBOS: true).isEmpty)
    }

    @Test func streamingEmitsEachCharacterOnce() throws {
        let tokenizer = try SmolLM2TestModel.tokenizer.get()
        for text in ["Emoji: 👍🏽 🎉 🚀 ❤️ 🇺🇸 𝄞 👨‍👩‍👧", "中文测试：今天天气很好。", "日本語 한국어 Ünïcödé 🙂🙂", "\u{10FFFD}\u{E000}"] {
            let ids = tokenizer.encode(text)
            var decoder = StreamingDecoder(tokenizer: tokenizer)
            var pieces: [String] = []
            for id in ids { pieces.append(decoder.append(id)) }
            pieces.append(decoder.flush())
            #expect(pieces.joined() == text)
            #expect(!pieces.joined().contains("\u{FFFD}"))
            #expect(pieces.contains(""), "some character of \(text.debugDescription) spans tokens")
        }
        // A four-byte character fed one byte token at a time comes out once, whole, on the last byte.
        let bytes = Array("🚀".utf8).map { tokenizer.byteTokenIDs[Int($0)] }
        var decoder = StreamingDecoder(tokenizer: tokenizer)
        #expect(bytes.map { decoder.append($0) } == ["", "", "", "🚀"])
    }

    @Test func handlesAdversarialText() throws {
        let tokenizer = try SmolLM2TestModel.tokenizer.get()
        let texts = [String(repeating: "<", count: 3000), String(repeating: " ", count: 500),
                     String(repeating: "\n\t ", count: 300), "<|im_start|><|im_end|><|im_start",
                     "\u{0}\u{1}\u{7F}", String(repeating: "é", count: 1000), String(repeating: "9", count: 2000),
                     "\u{85}\u{A0}\u{2028}\u{3000}x\u{200B}"]
        for text in texts {
            for special in [false, true] {
                let ids = tokenizer.encode(text, addBOS: false, parseSpecial: special)
                #expect(tokenizer.decode(ids, skipSpecial: false) == text, "\(text.prefix(20).debugDescription)…")
            }
        }
    }

    @Test func randomTextRoundTripsAndStreams() throws {
        let tokenizer = try SmolLM2TestModel.tokenizer.get()
        var random = SplitMix64(seed: 2027)
        for _ in 0..<400 {
            let text = TokenizerRoundTripTests.randomText(&random) + "<|im_end|>▁"
            for special in [false, true] {
                let ids = tokenizer.encode(text, parseSpecial: special)
                #expect(special == ids.contains(2), "<|im_end|> is its id only when parsing specials")
                #expect(tokenizer.decode(ids, skipSpecial: false) == text)
                var decoder = StreamingDecoder(tokenizer: tokenizer, skipSpecial: false)
                var streamed = ""
                for id in ids { streamed += decoder.append(id) }
                #expect(streamed + decoder.flush() == text)
            }
        }
    }
}
