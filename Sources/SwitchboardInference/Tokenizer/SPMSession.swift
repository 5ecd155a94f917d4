/// llama.cpp's SentencePiece merge (`llm_tokenizer_spm_session`): start from UTF-8 characters,
/// repeatedly merge the adjacent pair whose concatenation is the highest-scoring vocabulary piece
/// (leftmost on ties), then emit each symbol's id or its bytes as byte tokens.
struct SPMSession {
    private struct Bigram: BigramOrdered {
        var score: Float
        var left: Int32
        var right: Int32
        var size: Int32

        /// Higher score first, then the leftmost pair.
        func precedes(_ other: Bigram) -> Bool {
            score != other.score ? score > other.score : left < other.left
        }
    }

    private var start: [Int32] = []
    private var length: [Int32] = []
    private var previous: [Int32] = []
    private var next: [Int32] = []
    private var heap = BigramHeap<Bigram>()

    /// Byte length of a UTF-8 sequence from its lead byte's high nibble (continuation bytes count as 1).
    private static let sequenceLength: [Int32] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4]

    mutating func tokenize(_ text: UnsafeBufferPointer<UInt8>, with tokenizer: Tokenizer, into output: inout [Int32]) {
        guard !text.isEmpty else { return }
        start.removeAll(keepingCapacity: true)
        length.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        next.removeAll(keepingCapacity: true)
        heap.removeAll()

        var offset = 0
        while offset < text.count {
            let n = min(Int(Self.sequenceLength[Int(text[offset] >> 4)]), text.count - offset)
            let index = Int32(start.count)
            start.append(Int32(offset))
            length.append(Int32(n))
            previous.append(index - 1)
            offset += n
            next.append(offset == text.count ? -1 : index + 1)
        }
        for left in 0..<(start.count - 1) { addBigram(Int32(left), Int32(left + 1), text, tokenizer) }

        while let bigram = heap.pop() {
            let l = Int(bigram.left), r = Int(bigram.right)
            guard length[l] != 0, length[r] != 0, length[l] + length[r] == bigram.size else { continue }
            length[l] += length[r]
            length[r] = 0
            next[l] = next[r]
            if next[r] >= 0 { previous[Int(next[r])] = bigram.left }
            addBigram(previous[l], bigram.left, text, tokenizer)
            addBigram(bigram.left, next[l], text, tokenizer)
        }

        var symbol: Int32 = 0
        while symbol != -1 {
            let s = Int(symbol)
            let bytes = UnsafeBufferPointer(rebasing: text[Int(start[s])..<Int(start[s] + length[s])])
            let id = tokenizer.pieces.lookup(bytes)
            if id != PieceTable.notFound {
                output.append(id)
            } else {
                for byte in bytes { output.append(tokenizer.byteTokenIDs[Int(byte)]) }
            }
            symbol = next[s]
        }
    }

    private mutating func addBigram(_ left: Int32, _ right: Int32, _ text: UnsafeBufferPointer<UInt8>, _ tokenizer: Tokenizer) {
        guard left >= 0, right >= 0 else { return }
        let from = Int(start[Int(left)])
        let size = length[Int(left)] + length[Int(right)]
        let id = tokenizer.pieces.lookup(UnsafeBufferPointer(rebasing: text[from..<(from + Int(size))]))
        guard id != PieceTable.notFound else { return }
        heap.push(Bigram(score: tokenizer.scores[Int(id)], left: left, right: right, size: size))
    }
}
