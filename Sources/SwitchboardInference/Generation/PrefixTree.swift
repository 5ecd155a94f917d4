/// The prefix cache's bookkeeping: a trie of token blocks (`blockSize` tokens each, a prompt's tail
/// as a shorter leaf), each node holding a payload (the keys and values of those positions, a
/// `KVBlock`, in the engine; anything in tests). A prompt's prefix is found by walking its blocks; a
/// match may end inside a node (the keys and values of position p depend on tokens 0...p only, so any
/// leading part of a node is reusable).
///
/// Bounded: the payloads' bytes never exceed the cap an insertion is given (at most `limit`); room is
/// made by evicting the least recently used leaf first (a node is touched with its whole path, so an
/// ancestor is never older than its descendants, and leaves go first). A `limit` of 0 stores nothing.
///
/// Owned: every node records which owners (sessions; nil for requests without one) inserted a prompt
/// through it. An owner's path covers its ancestors, so a node's owners include its children's;
/// `forget(owner)` removes the owner everywhere and drops the nodes nobody else owns (with their
/// subtrees, which by that rule nobody owns either). Plain value logic, decided without a model.
struct PrefixTree<Payload> {
    struct Node {
        var tokens: [Int32]
        var payload: Payload
        var bytes: Int
        var parent: Int?
        var children: [Int] = []
        var owners: Set<UInt64?>
        var lastUse: UInt64
    }

    /// A cached prefix: the nodes to copy from, in order, with how many of each node's leading
    /// positions to take; `length` is their sum.
    struct Match: Equatable {
        var path: [Step] = []
        var length = 0
        struct Step: Equatable { var node: Int; var count: Int }
    }

    let blockSize: Int
    /// The most payload bytes ever held.
    let limit: Int
    private(set) var nodes: [Int: Node] = [:]
    private var roots: [Int] = []
    private var nextID = 0
    private var clock: UInt64 = 0
    private(set) var bytes = 0

    init(blockSize: Int, limit: Int) {
        self.blockSize = max(1, blockSize)
        self.limit = max(0, limit)
    }

    var isEmpty: Bool { nodes.isEmpty }

    /// Nodes `owner` holds a claim on.
    func count(ownedBy owner: UInt64?) -> Int { nodes.values.filter { $0.owners.contains(owner) }.count }

    /// Tokens held, all nodes together (for reports).
    var cachedTokens: Int { nodes.values.reduce(0) { $0 + $1.tokens.count } }

    /// The longest cached prefix of `ids[0..<limit]`; its nodes count as used now.
    mutating func lookup(_ ids: [Int32], limit: Int) -> Match {
        clock &+= 1
        var match = Match(), parent: Int?
        let end = max(0, min(limit, ids.count))
        while match.length < end {
            let chunk = ids[match.length..<min(match.length + blockSize, end)]
            var best: (node: Int, count: Int)?
            for child in children(of: parent) {
                let n = Self.commonPrefix(nodes[child]?.tokens ?? [], chunk)
                if n > (best?.count ?? 0) { best = (child, n) }
            }
            guard let best else { break }
            nodes[best.node]?.lastUse = clock
            match.path.append(Match.Step(node: best.node, count: best.count))
            match.length += best.count
            guard best.count == blockSize else { break }
            parent = best.node
        }
        return match
    }

    /// Stores the blocks of `ids[0..<count]` the tree lacks, owned by `owner` (added to the blocks it
    /// has, too), keeping the payload bytes within `min(cap, limit)` by evicting least recently used
    /// leaves off the prompt's path; stops at the first block that cannot fit. `make(range)` builds a
    /// new block's payload (nil: stop). A shorter leaf that the new block extends is replaced by it.
    /// Returns the nodes removed (evicted to make room, or replaced).
    @discardableResult
    mutating func insert(_ ids: [Int32], count: Int, owner: UInt64?, cap: Int, bytesFor: (Int) -> Int,
                         make: (Range<Int>) -> Payload?) -> [Int] {
        clock &+= 1
        let cap = max(0, min(cap, limit))
        var parent: Int?, position = 0, path: Set<Int> = [], evicted: [Int] = []
        let end = max(0, min(count, ids.count))
        while position < end {
            let chunk = ids[position..<min(position + blockSize, end)]
            let siblings = children(of: parent)
            // A node that starts with this chunk already covers it.
            if let covering = siblings.first(where: { nodes[$0].map { $0.tokens.starts(with: chunk) } ?? false }) {
                nodes[covering]?.lastUse = clock
                nodes[covering]?.owners.insert(owner)
                guard chunk.count == blockSize else { break }
                path.insert(covering)
                (parent, position) = (covering, position + chunk.count)
                continue
            }
            let superseded = siblings.filter { id in nodes[id].map { $0.tokens.count < chunk.count && chunk.starts(with: $0.tokens) } ?? false }
            let need = bytesFor(chunk.count), freed = superseded.reduce(0) { $0 + (nodes[$1]?.bytes ?? 0) }
            guard need <= cap else { break }
            var fits = true
            while bytes - freed + need > cap {
                guard let victim = leastRecentlyUsedLeaf(excluding: path.union(superseded)) else { fits = false; break }
                evicted += remove(victim)
            }
            guard fits, let payload = make(position..<(position + chunk.count)) else { break }
            var owners: Set<UInt64?> = [owner]
            for id in superseded {
                owners.formUnion(nodes[id]?.owners ?? [])
                evicted += remove(id)
            }
            let id = nextID
            nextID += 1
            nodes[id] = Node(tokens: Array(chunk), payload: payload, bytes: need, parent: parent, owners: owners, lastUse: clock)
            if let parent { nodes[parent]?.children.append(id) } else { roots.append(id) }
            bytes += need
            guard chunk.count == blockSize else { break }
            path.insert(id)
            (parent, position) = (id, position + chunk.count)
        }
        return evicted
    }

    /// Drops the least recently used leaf; false when the tree is empty.
    @discardableResult
    mutating func evictOne() -> Bool {
        guard let victim = leastRecentlyUsedLeaf(excluding: []) else { return false }
        remove(victim)
        return true
    }

    /// Removes `owner`'s claim everywhere; nodes left without an owner go (their subtrees with them).
    /// Returns the removed nodes.
    @discardableResult
    mutating func forget(_ owner: UInt64?) -> [Int] {
        var orphans: [Int] = []
        for id in Array(nodes.keys) {
            nodes[id]?.owners.remove(owner)
            if nodes[id]?.owners.isEmpty == true { orphans.append(id) }
        }
        return orphans.flatMap { nodes[$0] == nil ? [] : remove($0) }
    }

    mutating func removeAll() {
        nodes.removeAll(); roots.removeAll(); bytes = 0
    }

    func payload(_ id: Int) -> Payload? { nodes[id]?.payload }

    private func children(of parent: Int?) -> [Int] {
        guard let parent else { return roots }
        return nodes[parent]?.children ?? []
    }

    private func leastRecentlyUsedLeaf(excluding excluded: Set<Int>) -> Int? {
        var best: (id: Int, use: UInt64)?
        for (id, node) in nodes where node.children.isEmpty && !excluded.contains(id) {
            if let current = best, (node.lastUse, id) >= (current.use, current.id) { continue }
            best = (id, node.lastUse)
        }
        return best?.id
    }

    /// Removes `id` and its subtree; returns the removed ids.
    @discardableResult
    private mutating func remove(_ id: Int) -> [Int] {
        guard let node = nodes.removeValue(forKey: id) else { return [] }
        bytes -= node.bytes
        if let parent = node.parent { nodes[parent]?.children.removeAll { $0 == id } } else { roots.removeAll { $0 == id } }
        var removed = [id]
        for child in node.children { removed += remove(child) }
        return removed
    }

    private static func commonPrefix(_ a: [Int32], _ b: ArraySlice<Int32>) -> Int {
        var n = 0
        var i = b.startIndex
        while n < a.count, i < b.endIndex, a[n] == b[i] { n += 1; i += 1 }
        return n
    }
}
