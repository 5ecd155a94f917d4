extension Tokenizer {
    /// The text of `ids`. Control and unknown tokens (BOS, `<end_of_turn>`, `<|im_end|>`, …) are
    /// dropped when `skipSpecial`; otherwise written as their piece text. Bytes are joined before UTF-8
    /// decoding (a character may span tokens), and invalid sequences become U+FFFD. Out-of-range ids
    /// are ignored.
    public func decode(_ ids: [Int32], skipSpecial: Bool = true) -> String {
        var bytes: [UInt8] = []
        for id in ids { appendPieceBytes(id, skipSpecial: skipSpecial, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes token `id` contributes to decoded text (SentencePiece: ▁ as space, `<0xNN>` as one
    /// byte; byte-level BPE: each character through GPT-2's alphabet back to its byte). With
    /// `skipSpecial` false, control pieces contribute their text. Empty for unused or invalid ids.
    public func pieceBytes(_ id: Int32, skipSpecial: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        appendPieceBytes(id, skipSpecial: skipSpecial, to: &bytes)
        return bytes
    }

    func appendPieceBytes(_ id: Int32, skipSpecial: Bool, to output: inout [UInt8]) {
        guard isValid(id) else { return }
        let piece = pieces.bytes(of: id)
        switch types[Int(id)] {
        case .control, .unknown:
            if !skipSpecial { output += piece }
        case .userDefined:
            output += piece
        case .normal:
            switch algorithm {
            case .sentencePiece: Self.appendUnescaped(piece, to: &output)
            case .byteLevelBPE: ByteLevelAlphabet.appendDecoded(piece, to: &output)
            }
        case .byte:
            if let byte = Self.byteValue(piece) { output.append(byte) }
        case .unused, .undefined:
            break
        }
    }

    /// Replaces each "▁" with a space.
    private static func appendUnescaped(_ piece: ArraySlice<UInt8>, to output: inout [UInt8]) {
        var i = piece.startIndex
        while i < piece.endIndex {
            if piece[i] == 0xE2, i + 2 < piece.endIndex, piece[i + 1] == 0x96, piece[i + 2] == 0x81 {
                output.append(0x20)
                i += 3
            } else {
                output.append(piece[i])
                i += 1
            }
        }
    }

    /// The byte a `<0xNN>` piece stands for.
    private static func byteValue(_ piece: ArraySlice<UInt8>) -> UInt8? {
        guard piece.count == 6 else { return nil }
        let i = piece.startIndex
        guard let high = hexDigit(piece[i + 3]), let low = hexDigit(piece[i + 4]) else { return nil }
        return high << 4 | low
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
