/// Every vocabulary piece as bytes in one contiguous buffer, with an open-addressing hash index from
/// byte string to id. Built once at load; lookups hash the probe bytes in place without allocating.
struct PieceTable: Sendable {
    private(set) var storage: [UInt8] = []
    /// `offsets[id] ..< offsets[id + 1]` are the bytes of piece `id`.
    private(set) var offsets: [Int32] = [0]
    private var slots: [Int32] = []
    private var mask = 0

    static let emptySlot: Int32 = -1
    static let notFound: Int32 = -1

    /// FNV-1a, chosen because it can be advanced one byte at a time (special-token scanning does).
    static let hashSeed: UInt64 = 0xCBF2_9CE4_8422_2325
    @inline(__always) static func hashStep(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h = hashSeed
        for byte in bytes { h = hashStep(h, byte) }
        return h
    }

    /// Throws on a duplicate piece, which llama.cpp also refuses.
    init(pieces: [String]) throws(TokenizerError) {
        var total = 0
        for piece in pieces { total += piece.utf8.count }
        storage.reserveCapacity(total)
        offsets.reserveCapacity(pieces.count + 1)
        var capacity = 16
        while capacity < pieces.count * 2 { capacity <<= 1 }
        slots = [Int32](repeating: Self.emptySlot, count: capacity)
        mask = capacity - 1
        for (index, piece) in pieces.enumerated() {
            storage.append(contentsOf: piece.utf8)
            offsets.append(Int32(storage.count))
            let id = Int32(index)
            let existing = insert(id)
            guard existing == id else { throw .duplicatePiece(id: id, firstID: existing) }
        }
    }

    var count: Int { offsets.count - 1 }

    func bytes(of id: Int32) -> ArraySlice<UInt8> {
        storage[Int(offsets[Int(id)])..<Int(offsets[Int(id) + 1])]
    }

    func length(of id: Int32) -> Int { Int(offsets[Int(id) + 1] - offsets[Int(id)]) }

    /// Inserts `id`, returning it, or the id already holding the same bytes.
    private mutating func insert(_ id: Int32) -> Int32 {
        let start = Int(offsets[Int(id)]), end = Int(offsets[Int(id) + 1])
        let hash = storage.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[start..<end])) }
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let occupant = slots[slot]
            if occupant == Self.emptySlot {
                slots[slot] = id
                return id
            }
            let otherStart = Int(offsets[Int(occupant)]), otherEnd = Int(offsets[Int(occupant) + 1])
            let same = storage.withUnsafeBufferPointer { store in
                UnsafeBufferPointer(rebasing: store[otherStart..<otherEnd]).elementsEqual(UnsafeBufferPointer(rebasing: store[start..<end]))
            }
            if same { return occupant }
            slot = (slot + 1) & mask
        }
    }

    /// The id whose piece is exactly `bytes`, or `notFound`.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        lookup(bytes, hash: Self.hash(bytes))
    }

    func lookup(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32 {
        storage.withUnsafeBufferPointer { store in
            offsets.withUnsafeBufferPointer { offsets in
                slots.withUnsafeBufferPointer { slots in
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    while true {
                        let occupant = slots[slot]
                        if occupant == Self.emptySlot { return Self.notFound }
                        let start = Int(offsets[Int(occupant)]), end = Int(offsets[Int(occupant) + 1])
                        if end - start == bytes.count, UnsafeBufferPointer(rebasing: store[start..<end]).elementsEqual(bytes) {
                            return occupant
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    func lookup(_ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBufferPointer { lookup($0) }
    }
}
