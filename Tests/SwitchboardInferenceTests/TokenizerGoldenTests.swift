import Foundation
import Testing
@testable import SwitchboardInference

/// The real Gemma 3 vocabulary against llama.cpp's tokenization (`Tests/Fixtures/golden/gemma3`).
@Suite("Tokenizer on the real model", .requiresGGUFModel)
struct TokenizerGoldenTests {
    struct Golden: Decodable {
        struct Case: Decodable {
            var text: String
            var ids: [Int32]
            var special: Bool?
        }
        var cases: [Case]
    }

    static let goldenDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/golden/gemma3").standardized

    static let tokenizer: Result<Tokenizer, any Error> = Result {
        try Tokenizer(gguf: try GGUFTestModel.open())
    }

    static func golden() throws -> Golden {
        let data = try Data(contentsOf: goldenDirectory.appendingPathComponent("tokenizer_public.json"))
        return try JSONDecoder().decode(Golden.self, from: data)
    }

    @Test func matchesEveryGoldenCase() throws {
        let tokenizer = try Self.tokenizer.get()
        let golden = try Self.golden()
        #expect(golden.cases.count >= 30)
        #expect(golden.cases.contains { $0.special == true })
        for item in golden.cases {
            let ids = tokenizer.encode(item.text, parseSpecial: item.special ?? false)
            #expect(ids == item.ids, "\(item.text.debugDescription)")
        }
    }

    @Test func decodeInvertsEncodeOnTheCorpus() throws {
        let tokenizer = try Self.tokenizer.get()
        let corpus = try String(contentsOf: Self.goldenDirectory.appendingPathComponent("corpus_public.txt"), encoding: .utf8)
        let lines = corpus.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) + [corpus]
        for line in lines {
            #expect(tokenizer.decode(tokenizer.encode(line)) == line, "\(line.debugDescription)")
        }
        let chat = "<start_of_turn>user\nHi<end_of_turn>\n"
        let ids = tokenizer.encode(chat, parseSpecial: true)
        #expect(ids.first == tokenizer.bosID)
        #expect(tokenizer.decode(Array(ids.dropFirst()), skipSpecial: false) == chat)
        #expect(tokenizer.decode(ids) == "user\nHi\n")
    }

    @Test func specialIDsAndPieces() throws {
        let tokenizer = try Self.tokenizer.get()
        #expect(tokenizer.vocabularySize == 262_144)
        #expect(tokenizer.bosID == 2 && tokenizer.eosID == 1 && tokenizer.unknownID == 3)
        #expect(tokenizer.endOfTurnID == 106)
        #expect(tokenizer.endOfGenerationIDs == [1, 106])
        #expect(tokenizer.id(of: "<start_of_turn>") == 105)
        #expect(tokenizer.id(of: "<0x41>") != nil)
        #expect(tokenizer.type(of: 105) == .control)
        #expect(tokenizer.pieceBytes(107) == [0x0A])
        // Control tokens are plain text unless special parsing is on.
        #expect(tokenizer.encode("<start_of_turn>", addBOS: false).count > 1)
        #expect(tokenizer.encode("<start_of_turn>", addBOS: false, parseSpecial: true) == [105])
        #expect(tokenizer.encode("", addBOS: true) == [2])
        #expect(tokenizer.encode("", addBOS: false).isEmpty)
        // A literal "▁" is SentencePiece's space marker, so it reads back as a space (as in llama.cpp).
        #expect(tokenizer.decode(tokenizer.encode("▁x", addBOS: false)) == " x")
    }

    @Test func streamingEmitsEachCharacterOnce() throws {
        let tokenizer = try Self.tokenizer.get()
        for text in ["Emoji: 👍🏽 🎉 🚀 ❤️ 🇺🇸 𝄞", "中文测试：今天天气很好。", "日本語 한국어 Ünïcödé 🙂🙂", "\u{10FFFD}\u{E000}"] {
            let ids = tokenizer.encode(text, addBOS: true)
            var decoder = StreamingDecoder(tokenizer: tokenizer)
            var pieces: [String] = []
            for id in ids { pieces.append(decoder.append(id)) }
            pieces.append(decoder.flush())
            #expect(pieces.joined() == text)
            #expect(!pieces.joined().contains("\u{FFFD}"))
        }
        // A four-byte character fed as single byte tokens comes out once, whole, on the last byte.
        let bytes = Array("🚀".utf8).map { tokenizer.byteTokenIDs[Int($0)] }
        var decoder = StreamingDecoder(tokenizer: tokenizer)
        let emitted = bytes.map { decoder.append($0) }
        #expect(emitted == ["", "", "", "🚀"])
    }

    @Test func handlesAdversarialText() throws {
        let tokenizer = try Self.tokenizer.get()
        let texts = [String(repeating: "<", count: 3000), String(repeating: " ", count: 500),
                     String(repeating: "\n\t ", count: 300), "<start_of_turn><end_of_turn><start_of_turn",
                     "\u{0}\u{1}\u{7F}", String(repeating: "é", count: 1000)]
        for text in texts {
            for special in [false, true] {
                let ids = tokenizer.encode(text, addBOS: false, parseSpecial: special)
                let decoded = tokenizer.decode(ids, skipSpecial: false)
                #expect(decoded == text, "\(text.prefix(20).debugDescription)… special: \(special)")
            }
        }
    }
}
