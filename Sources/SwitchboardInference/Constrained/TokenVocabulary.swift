/// Every token's bytes, computed once per model and shared: the decoder feeds them to the automaton
/// without touching the tokenizer. Control tokens have no bytes here (they are never JSON); the
/// end-of-generation ids are kept apart, allowed only once the document may end.
final class TokenVocabulary: Sendable {
    private let bytes: [UInt8]
    /// Token `id`'s bytes are `bytes[offsets[id]..<offsets[id + 1]]`.
    private let offsets: [Int32]
    let stopIDs: Set<Int32>
    /// The one end-of-generation id the decoder emits when the document is finished.
    let preferredStop: Int32

    var count: Int { offsets.count - 1 }

    init(tokenizer: Tokenizer, stopIDs: Set<Int32>) {
        var bytes: [UInt8] = []
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(tokenizer.vocabularySize + 1)
        for id in 0..<Int32(tokenizer.vocabularySize) {
            if !stopIDs.contains(id) { bytes += tokenizer.pieceBytes(id, skipSpecial: true) }
            offsets.append(Int32(bytes.count))
        }
        self.bytes = bytes
        self.offsets = offsets
        self.stopIDs = stopIDs
        preferredStop = tokenizer.endOfTurnID.flatMap { stopIDs.contains($0) ? $0 : nil } ?? stopIDs.min() ?? tokenizer.eosID
    }

    /// The bytes of token `id` (empty for control tokens and ids outside the vocabulary).
    @inline(__always) func bytes(of id: Int32) -> ArraySlice<UInt8> {
        guard id >= 0, Int(id) < count else { return [] }
        return bytes[Int(offsets[Int(id)])..<Int(offsets[Int(id) + 1])]
    }
}
