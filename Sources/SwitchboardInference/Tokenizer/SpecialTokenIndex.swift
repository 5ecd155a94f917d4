/// Finds special pieces (user-defined always; control and unknown when parsing specials) in raw text
/// and splits the text the way llama.cpp's `tokenizer_st_partition` does: pieces are taken longest
/// first, each claiming its leftmost non-overlapping occurrences inside still-raw text.
struct SpecialTokenIndex: Sendable {
    enum Fragment: Equatable {
        case raw(Range<Int>)
        case token(Int32)
    }

    /// Distinct lengths (ascending) of special pieces beginning with each byte.
    private let lengthsByFirstByte: [[Int]]
    /// Position of each special id in llama.cpp's cache order (longest first; ties by id).
    private let rank: [Int32: Int32]
    /// Hashes of every proper prefix of a special piece: scanning stops as soon as the text read so
    /// far cannot grow into one (a hash collision only costs an extra step, never a wrong match).
    private let prefixHashes: Set<UInt64>

    init(pieces: PieceTable, types: [TokenType]) {
        var specialIDs: [Int32] = []
        var lengthSets = [Set<Int>](repeating: [], count: 256)
        var prefixes = Set<UInt64>()
        for id in 0..<pieces.count where types[id].isSpecial {
            let bytes = pieces.bytes(of: Int32(id))
            guard let first = bytes.first else { continue }
            specialIDs.append(Int32(id))
            lengthSets[Int(first)].insert(bytes.count)
            var hash = PieceTable.hashSeed
            for byte in bytes.dropLast() {
                hash = PieceTable.hashStep(hash, byte)
                prefixes.insert(hash)
            }
        }
        prefixHashes = prefixes
        specialIDs.sort { a, b in
            let la = pieces.length(of: a), lb = pieces.length(of: b)
            return la != lb ? la > lb : a < b
        }
        var rank: [Int32: Int32] = [:]
        rank.reserveCapacity(specialIDs.count)
        for (position, id) in specialIDs.enumerated() { rank[id] = Int32(position) }
        self.rank = rank
        lengthsByFirstByte = lengthSets.map { $0.sorted() }
    }

    func fragments(
        of text: UnsafeBufferPointer<UInt8>, parseSpecial: Bool, pieces: PieceTable, types: [TokenType]
    ) -> [Fragment] {
        let occurrences = findOccurrences(in: text, parseSpecial: parseSpecial, pieces: pieces, types: types)
        guard !occurrences.isEmpty else { return text.isEmpty ? [] : [.raw(0..<text.count)] }
        var claimed = [Bool](repeating: false, count: text.count)
        var matches: [(start: Int, length: Int, id: Int32)] = []
        var currentID: Int32 = -1
        var nextAllowed = 0
        for occurrence in occurrences {
            if occurrence.id != currentID {
                currentID = occurrence.id
                nextAllowed = 0
            }
            let start = Int(occurrence.position), end = start + pieces.length(of: occurrence.id)
            guard start >= nextAllowed, !claimed[start..<end].contains(true) else { continue }
            for i in start..<end { claimed[i] = true }
            matches.append((start, end - start, occurrence.id))
            nextAllowed = end
        }
        matches.sort { $0.start < $1.start }
        var fragments: [Fragment] = []
        var cursor = 0
        for match in matches {
            if match.start > cursor { fragments.append(.raw(cursor..<match.start)) }
            fragments.append(.token(match.id))
            cursor = match.start + match.length
        }
        if cursor < text.count { fragments.append(.raw(cursor..<text.count)) }
        return fragments
    }

    /// Every position where an eligible special piece occurs, sorted by (cache rank, position).
    private func findOccurrences(
        in text: UnsafeBufferPointer<UInt8>, parseSpecial: Bool, pieces: PieceTable, types: [TokenType]
    ) -> [(rank: Int32, position: Int32, id: Int32)] {
        var found: [(rank: Int32, position: Int32, id: Int32)] = []
        for position in 0..<text.count {
            let lengths = lengthsByFirstByte[Int(text[position])]
            if lengths.isEmpty { continue }
            var hash = PieceTable.hashSeed
            var hashed = 0
            for length in lengths {
                guard position + length <= text.count else { break }
                while hashed < length {
                    // Stop once the bytes read so far start no special piece.
                    if hashed > 0, !prefixHashes.contains(hash) { break }
                    hash = PieceTable.hashStep(hash, text[position + hashed])
                    hashed += 1
                }
                guard hashed == length else { break }
                let id = pieces.lookup(UnsafeBufferPointer(rebasing: text[position..<(position + length)]), hash: hash)
                guard id != PieceTable.notFound else { continue }
                let type = types[Int(id)]
                guard type == .userDefined || (parseSpecial && type.isSpecial), let rank = rank[id] else { continue }
                found.append((rank, Int32(position), id))
            }
        }
        found.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.position < $1.position }
        return found
    }
}
