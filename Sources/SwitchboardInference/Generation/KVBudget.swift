/// The KV memory ceiling of a batched engine, in bytes of resident cache. A running sequence holds
/// what it may grow to (prompt + `maxTokens` positions, capped by the context); an idle slot holds
/// what it keeps for prefix reuse; the prefix cache (`PrefixTree`) holds its blocks. Plain value
/// logic, decided without threads (`BatchLoop` acts on it).
struct KVBudget: Equatable {
    enum Decision: Equatable {
        /// Fits now.
        case admit
        /// Fits once running sequences finish (or idle slots drop their kept caches).
        case wait
        /// Larger than the whole budget: can never run.
        case reject
    }

    /// Bytes at most, all slots together.
    let limit: Int
    private(set) var held: [Int]
    /// Bytes of the prefix cache, shared by all slots.
    private(set) var cached = 0

    init(limit: Int, slots: Int) {
        self.limit = max(0, limit)
        held = [Int](repeating: 0, count: max(0, slots))
    }

    var total: Int { held.reduce(0, &+) &+ cached }

    /// Bytes the prefix cache may hold beside what the slots hold.
    var roomForCache: Int {
        let (room, overflow) = limit.subtractingReportingOverflow(held.reduce(0, &+))
        return overflow ? 0 : max(0, room)
    }

    /// Whether a sequence needing `bytes` can take `slot` (whose own holding it replaces).
    func decide(_ bytes: Int, slot: Int) -> Decision {
        guard bytes <= limit else { return .reject }
        return total - held[slot] <= limit - bytes ? .admit : .wait
    }

    /// Whether emptying the prefix cache would let `bytes` take `slot` now (else running sequences
    /// hold the room, and dropping cached prefixes would lose them for nothing).
    func fitsWithoutCache(_ bytes: Int, slot: Int) -> Bool {
        bytes <= limit && (total &- cached) - held[slot] <= limit - bytes
    }

    mutating func set(_ slot: Int, _ bytes: Int) { held[slot] = max(0, bytes) }

    mutating func setCached(_ bytes: Int) { cached = max(0, bytes) }

    /// Positions a request reserves: its prompt plus every token it may generate, within the context.
    static func positions(prompt: Int, maxTokens: Int, contextLength: Int) -> Int {
        let (sum, overflow) = prompt.addingReportingOverflow(max(0, maxTokens))
        return min(contextLength, overflow ? .max : sum)
    }
}
