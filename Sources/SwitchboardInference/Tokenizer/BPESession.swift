/// What a byte-level BPE tokenizer keeps beside the vocabulary.
struct ByteLevelBPE: Sendable {
    let preTokenizer: PreTokenizer
    let merges: BPEMergeTable
}

/// llama.cpp's byte-level BPE (`llm_tokenizer_bpe_session`) on one span of raw text: pre-tokenize
/// into words, then in each word start from one symbol per byte (the piece spelling that byte) and
/// repeatedly merge the adjacent pair with the lowest merge rank, leftmost on ties. Works on scalars,
/// byte offsets and integer ids; the buffers are kept from word to word.
struct BPESession {
    struct RankedPair: BigramOrdered {
        var rank: Int32
        var left: Int32
        var right: Int32
        var size: Int32
        var merged: Int32

        func precedes(_ other: RankedPair) -> Bool {
            rank != other.rank ? rank < other.rank : left < other.left
        }
    }

    var scalars: [UInt32] = []
    var classes: [UInt8] = []
    /// Byte offset of each scalar, then the span's length.
    var offsets: [Int] = []
    var ends: [Int] = []
    var nextEnds: [Int] = []
    var symbols: [Int32] = []
    var lengths: [Int32] = []
    var previous: [Int32] = []
    var next: [Int32] = []
    var heap = BigramHeap<RankedPair>()
    var spelled: [UInt8] = []

    mutating func tokenize(
        _ text: UnsafeBufferPointer<UInt8>, bpe: ByteLevelBPE, tokenizer: Tokenizer, into output: inout [Int32]
    ) {
        guard !text.isEmpty else { return }
        preTokenize(text, bpe.preTokenizer)
        var start = 0
        for end in ends {
            let word = UnsafeBufferPointer(rebasing: text[offsets[start]..<offsets[end]])
            mergeWord(word, bpe: bpe, tokenizer: tokenizer, into: &output)
            start = end
        }
    }

    /// The byte range of each word `pre` cuts `text` into.
    mutating func words(_ text: UnsafeBufferPointer<UInt8>, _ pre: PreTokenizer) -> [Range<Int>] {
        preTokenize(text, pre)
        var start = 0
        return ends.map { end in
            defer { start = end }
            return offsets[start]..<offsets[end]
        }
    }

    /// Fills `ends` with the scalar index where each word ends.
    private mutating func preTokenize(_ text: UnsafeBufferPointer<UInt8>, _ pre: PreTokenizer) {
        decodeScalars(text)
        ends.removeAll(keepingCapacity: true)
        if !scalars.isEmpty { ends.append(scalars.count) }
        for split in pre.splits { apply(split) }
    }

    /// Runs one splitter over every current piece.
    private mutating func apply(_ split: PreTokenizer.Split) {
        nextEnds.removeAll(keepingCapacity: true)
        scalars.withUnsafeBufferPointer { scalars in
            classes.withUnsafeBufferPointer { classes in
                var start = 0
                for end in ends {
                    let span = ScalarSpan(scalars: scalars, classes: classes, end: end)
                    switch split {
                    case .eachNumber: span.splitEachNumber(from: start, into: &nextEnds)
                    case .gpt2: span.splitGPT2(from: start, into: &nextEnds)
                    case .llama3(let maxDigits): span.splitLlama3(from: start, maxDigits: maxDigits, into: &nextEnds)
                    }
                    start = end
                }
            }
        }
        swap(&ends, &nextEnds)
    }

    /// UTF-8 to scalars with their classes and byte offsets; an invalid byte reads as U+FFFD, as in
    /// llama.cpp, and keeps its place so no input byte is lost.
    private mutating func decodeScalars(_ text: UnsafeBufferPointer<UInt8>) {
        scalars.removeAll(keepingCapacity: true)
        classes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        var i = 0
        while i < text.count {
            let (value, length) = Self.scalar(in: text, at: i)
            scalars.append(value)
            classes.append(ScalarClass.of(value))
            offsets.append(i)
            i += length
        }
        offsets.append(text.count)
    }

    @inline(__always) private static func scalar(in text: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = text[i]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0, lead < 0xF8, i + length <= text.count else { return (0xFFFD, 1) }
        var value = UInt32(lead) & (0x7F >> length)
        for k in 1..<length {
            let byte = text[i + k]
            guard byte & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, length)
    }
}
