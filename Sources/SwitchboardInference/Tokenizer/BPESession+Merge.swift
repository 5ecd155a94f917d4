extension BPESession {
    /// Merges one pre-tokenized word and appends its ids. A byte whose spelling is not a piece (only
    /// in incomplete vocabularies) is dropped, as llama.cpp drops it.
    mutating func mergeWord(
        _ word: UnsafeBufferPointer<UInt8>, bpe: ByteLevelBPE, tokenizer: Tokenizer, into output: inout [Int32]
    ) {
        if bpe.preTokenizer.ignoresMerges, let id = wholeWordID(word, tokenizer.pieces) {
            output.append(id)
            return
        }
        // Symbols are indexed by Int32; a word of 2 GiB or more (absurd input) stays unmerged bytes.
        guard word.count > 1, word.count < Int(Int32.max) else {
            for byte in word where tokenizer.byteTokenIDs[Int(byte)] >= 0 { output.append(tokenizer.byteTokenIDs[Int(byte)]) }
            return
        }
        symbols.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        next.removeAll(keepingCapacity: true)
        heap.removeAll()
        for (index, byte) in word.enumerated() {
            symbols.append(tokenizer.byteTokenIDs[Int(byte)])
            lengths.append(1)
            previous.append(Int32(index - 1))
            next.append(index + 1 == word.count ? -1 : Int32(index + 1))
        }
        for left in 0..<(word.count - 1) { addPair(Int32(left), Int32(left + 1), bpe.merges) }

        while let pair = heap.pop() {
            let l = Int(pair.left), r = Int(pair.right)
            // A pair is stale once either side has merged with something else.
            guard lengths[l] != 0, lengths[r] != 0, lengths[l] + lengths[r] == pair.size else { continue }
            symbols[l] = pair.merged
            lengths[l] = pair.size
            lengths[r] = 0
            next[l] = next[r]
            if next[r] >= 0 { previous[Int(next[r])] = pair.left }
            addPair(previous[l], pair.left, bpe.merges)
            addPair(pair.left, next[l], bpe.merges)
        }

        var symbol: Int32 = 0
        while symbol >= 0 {
            let id = symbols[Int(symbol)]
            if id >= 0 { output.append(id) }
            symbol = next[Int(symbol)]
        }
    }

    mutating func addPair(_ left: Int32, _ right: Int32, _ merges: BPEMergeTable) {
        guard left >= 0, right >= 0 else { return }
        let a = symbols[Int(left)], b = symbols[Int(right)]
        guard a >= 0, b >= 0, let merge = merges.merge(a, b) else { return }
        heap.push(RankedPair(
            rank: merge.rank, left: left, right: right, size: lengths[Int(left)] + lengths[Int(right)], merged: merge.merged))
    }

    /// The piece spelling the whole word, if there is one (`ignore_merges` vocabularies).
    private mutating func wholeWordID(_ word: UnsafeBufferPointer<UInt8>, _ pieces: PieceTable) -> Int32? {
        spelled.removeAll(keepingCapacity: true)
        for byte in word { spelled += ByteLevelAlphabet.utf8OfByte[Int(byte)] }
        let id = pieces.lookup(spelled)
        return id == PieceTable.notFound ? nil : id
    }
}
