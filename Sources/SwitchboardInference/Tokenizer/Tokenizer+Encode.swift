extension Tokenizer {
    /// Token ids for `text`, starting with BOS when `addBOS` and the vocabulary asks for it (`addBOS`
    /// is false for SmolLM2, so it never gets one). With `parseSpecial`, control pieces written in the
    /// text (`<start_of_turn>`, `<|im_start|>`) become their ids; user-defined pieces are always split
    /// out. The text between special pieces goes through the vocabulary's algorithm.
    public func encode(_ text: String, addBOS: Bool = true, parseSpecial: Bool = false) -> [Int32] {
        var output: [Int32] = []
        if addBOS && self.addBOS { output.append(bosID) }
        let utf8 = Array(text.utf8)
        utf8.withUnsafeBufferPointer { bytes in
            let fragments = specials.fragments(of: bytes, parseSpecial: parseSpecial, pieces: pieces, types: types)
            switch algorithm {
            case .sentencePiece:
                encodeSentencePiece(bytes, fragments, into: &output)
            case .byteLevelBPE(let bpe):
                var session = BPESession()
                for fragment in fragments {
                    switch fragment {
                    case .token(let id): output.append(id)
                    case .raw(let range):
                        session.tokenize(UnsafeBufferPointer(rebasing: bytes[range]), bpe: bpe, tokenizer: self, into: &output)
                    }
                }
            }
        }
        return output
    }

    /// SentencePiece: spaces become `▁` (plus one in front after a special piece when the vocabulary
    /// adds a space prefix), then score-ordered merging.
    private func encodeSentencePiece(
        _ bytes: UnsafeBufferPointer<UInt8>, _ fragments: [SpecialTokenIndex.Fragment], into output: inout [Int32]
    ) {
        var session = SPMSession()
        var escaped: [UInt8] = []
        var isPreviousSpecial = true
        for fragment in fragments {
            switch fragment {
            case .token(let id):
                output.append(id)
                isPreviousSpecial = true
            case .raw(let range):
                escaped.removeAll(keepingCapacity: true)
                if addSpacePrefix && isPreviousSpecial { escaped += Self.spaceMarker }
                for byte in bytes[range] {
                    if byte == 0x20 { escaped += Self.spaceMarker } else { escaped.append(byte) }
                }
                escaped.withUnsafeBufferPointer { session.tokenize($0, with: self, into: &output) }
                isPreviousSpecial = false
            }
        }
    }

    /// "▁" (U+2581), SentencePiece's stand-in for a space.
    static let spaceMarker: [UInt8] = [0xE2, 0x96, 0x81]
}
