extension Tokenizer {
    /// Token ids for `text`, starting with BOS when `addBOS` and the model asks for it. With
    /// `parseSpecial`, control pieces written in the text (e.g. `<start_of_turn>`) become their ids;
    /// user-defined pieces (newline, space and tab runs, …) are always split out.
    public func encode(_ text: String, addBOS: Bool = true, parseSpecial: Bool = false) -> [Int32] {
        var output: [Int32] = []
        if addBOS && self.addBOS { output.append(bosID) }
        var utf8 = Array(text.utf8)
        utf8.withUnsafeMutableBufferPointer { mutable in
            let bytes = UnsafeBufferPointer(mutable)
            var session = SPMSession()
            var escaped: [UInt8] = []
            var isPreviousSpecial = true
            for fragment in specials.fragments(of: bytes, parseSpecial: parseSpecial, pieces: pieces, types: types) {
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
        return output
    }

    /// "▁" (U+2581), SentencePiece's stand-in for a space.
    static let spaceMarker: [UInt8] = [0xE2, 0x96, 0x81]
}
