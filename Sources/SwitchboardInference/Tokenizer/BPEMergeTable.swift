/// The ranked merges of a byte-level BPE vocabulary (`tokenizer.ggml.merges`, rank = index) as an
/// open-addressing hash from a pair of piece ids to the merge's rank and the id of the merged piece,
/// so the merge loop works on integers and never builds strings.
struct BPEMergeTable: Sendable {
    private var keys: [UInt64] = []
    /// Rank in the high half, merged id in the low half.
    private var values: [UInt64] = []
    private var mask = 0
    private(set) var count = 0

    private static let emptyKey = UInt64.max

    /// Parses `"left right"` entries against the vocabulary. An entry that does not split in two, or
    /// whose halves or concatenation are not pieces, is refused; a repeated pair keeps its first rank,
    /// as in llama.cpp.
    init(merges: [String], pieces: PieceTable) throws(TokenizerError) {
        var capacity = 16
        while capacity < merges.count * 2 { capacity <<= 1 }
        keys = [UInt64](repeating: Self.emptyKey, count: capacity)
        values = [UInt64](repeating: 0, count: capacity)
        mask = capacity - 1
        var joined: [UInt8] = []
        for (rank, entry) in merges.enumerated() {
            let bytes = Array(entry.utf8)
            // llama.cpp splits at the first space after the first byte.
            guard bytes.count >= 3, let space = bytes[1...].firstIndex(of: 0x20), space + 1 < bytes.count else {
                throw .malformedMerge(index: rank, entry: entry)
            }
            joined.removeAll(keepingCapacity: true)
            joined += bytes[..<space]
            let left = pieces.lookup(joined)
            let right = pieces.lookup(Array(bytes[(space + 1)...]))
            joined += bytes[(space + 1)...]
            let merged = pieces.lookup(joined)
            guard left != PieceTable.notFound, right != PieceTable.notFound, merged != PieceTable.notFound else {
                throw .mergeOutsideVocabulary(index: rank, entry: entry)
            }
            insert(key: Self.key(left, right), value: UInt64(rank) << 32 | UInt64(UInt32(merged)))
        }
    }

    @inline(__always) private static func key(_ left: Int32, _ right: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: left)) << 32 | UInt64(UInt32(bitPattern: right))
    }

    @inline(__always) private func slot(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 29) & mask
    }

    private mutating func insert(key: UInt64, value: UInt64) {
        var slot = slot(of: key)
        while keys[slot] != Self.emptyKey {
            if keys[slot] == key { return }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        values[slot] = value
        count += 1
    }

    /// The merge of `left` followed by `right`: rank (lower merges first) and merged id, or nil.
    @inline(__always) func merge(_ left: Int32, _ right: Int32) -> (rank: Int32, merged: Int32)? {
        let key = Self.key(left, right)
        return keys.withUnsafeBufferPointer { keys in
            var slot = slot(of: key)
            while true {
                let stored = keys[slot]
                if stored == key {
                    let value = values[slot]
                    return (Int32(truncatingIfNeeded: value >> 32), Int32(truncatingIfNeeded: value))
                }
                if stored == Self.emptyKey { return nil }
                slot = (slot + 1) & mask
            }
        }
    }
}
