import Testing
@testable import SwitchboardInference

/// Seeded random text through the real vocabulary: encoding never fails, decoding gives the text back,
/// and the streaming decoder agrees with the batch decoder. (A literal "▁" is left out of the alphabet:
/// SentencePiece cannot tell it from an escaped space, so it decodes as " ", exactly as in llama.cpp.)
@Suite("Tokenizer round trips on random text", .requiresGGUFModel)
struct TokenizerRoundTripTests {
    static let alphabet: [String] = [
        "a", "e", "the", " ", "  ", "\n", "\n\n", "\t", "<", ">", "<start_of_turn>", "<end_of_turn>", "<table>",
        "[multimodal]", "é", "ß", "中", "文", "😀", "👍🏽", "🇺🇸", "\u{0}", "\u{7F}", "\u{FFFD}", "\u{10FFFF}",
        "Ω", "<0x41>", "<unused0>", "0", "42", ".", ",", "\"", "\\", "\r\n", "ﬁ", "\u{301}",
    ]

    static func randomText(_ random: inout SplitMix64) -> String {
        let length = Int(random.next() % 40)
        var text = ""
        for _ in 0..<length { text += alphabet[Int(random.next() % UInt64(alphabet.count))] }
        return text
    }

    @Test func randomTextRoundTrips() throws {
        let tokenizer = try TokenizerGoldenTests.tokenizer.get()
        var random = SplitMix64(seed: 2026)
        for _ in 0..<400 {
            let text = Self.randomText(&random)
            let plain = tokenizer.encode(text, addBOS: false)
            #expect(tokenizer.decode(plain, skipSpecial: false) == text)
            #expect(!plain.contains(105), "control pieces stay text without parseSpecial")
            let special = tokenizer.encode(text, addBOS: false, parseSpecial: true)
            #expect(tokenizer.decode(special, skipSpecial: false) == text)
            var decoder = StreamingDecoder(tokenizer: tokenizer, skipSpecial: false)
            var streamed = ""
            for id in special { streamed += decoder.append(id) }
            streamed += decoder.flush()
            #expect(streamed == text)
        }
    }
}
