import Testing
@testable import SwitchboardInference

/// The prefix cache's decisions without a model: the payload of a block is its own tokens (one byte
/// per token), so a lookup's copied payloads must spell the prompt's prefix exactly as keys and
/// values would have to.
@Suite struct PrefixTreeTests {
    typealias Tree = PrefixTree<[Int32]>

    static func insert(_ tree: inout Tree, _ ids: [Int32], owner: UInt64? = nil, cap: Int = .max) {
        tree.insert(ids, count: ids.count, owner: owner, cap: cap, bytesFor: { $0 }, make: { Array(ids[$0]) })
    }

    /// The tokens a match copies, read from the payloads.
    static func copied(_ tree: Tree, _ match: Tree.Match) -> [Int32] {
        match.path.flatMap { step in (tree.payload(step.node) ?? []).prefix(step.count) }
    }

    @Test func findsTheLongestPrefixInsideBlocksButNeverPastTheLimit() {
        var tree = Tree(blockSize: 4, limit: 100)
        #expect(tree.lookup([1, 2, 3], limit: 3).length == 0)
        let ids: [Int32] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        Self.insert(&tree, ids)
        #expect(tree.nodes.count == 3 && tree.bytes == 10 && tree.cachedTokens == 10)
        let all = tree.lookup(ids, limit: ids.count - 1)
        #expect(all.length == 9 && all.path.map(\.count) == [4, 4, 1] && Self.copied(tree, all) == Array(ids.prefix(9)))
        // A prompt that leaves the cached one inside the second block keeps the part before.
        let other: [Int32] = [0, 1, 2, 3, 4, 5, 99, 7, 8]
        let partial = tree.lookup(other, limit: other.count - 1)
        #expect(partial.length == 6 && Self.copied(tree, partial) == Array(other.prefix(6)))
        #expect(tree.lookup([5, 6, 7], limit: 3).length == 0)
        #expect(tree.lookup(ids, limit: 0).length == 0 && tree.lookup(ids, limit: -3).length == 0)
    }

    @Test func aLongerPromptReplacesTheShorterTailAndSharedBlocksAreStoredOnce() {
        var tree = Tree(blockSize: 4, limit: 100)
        Self.insert(&tree, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        Self.insert(&tree, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        #expect(tree.nodes.count == 4 && tree.bytes == 13)
        // A prompt that diverges in its third block adds a sibling, nothing else.
        Self.insert(&tree, [0, 1, 2, 3, 4, 5, 6, 7, 50, 51])
        #expect(tree.nodes.count == 5 && tree.bytes == 15)
        // A prompt the tree covers adds nothing.
        Self.insert(&tree, [0, 1, 2, 3, 4, 5])
        #expect(tree.nodes.count == 5 && tree.bytes == 15)
        let ids: [Int32] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
        let match = tree.lookup(ids, limit: ids.count - 1)
        #expect(match.length == 13 && Self.copied(tree, match) == Array(ids.prefix(13)))
    }

    @Test func evictsTheLeastRecentlyUsedLeafFirstAndStaysWithinItsLimit() {
        var tree = Tree(blockSize: 4, limit: 16)
        let a: [Int32] = [1, 1, 1, 1, 2, 2, 2, 2], b: [Int32] = [3, 3, 3, 3, 4, 4, 4, 4]
        Self.insert(&tree, a)
        Self.insert(&tree, b)
        #expect(tree.bytes == 16)
        _ = tree.lookup(a, limit: 7)  // a is now the more recent
        Self.insert(&tree, [5, 5, 5, 5])
        // b's leaf went first (its root stayed: a leaf was enough), a is intact.
        #expect(tree.bytes == 16 && tree.lookup(a, limit: 8).length == 8 && tree.lookup(b, limit: 8).length == 4)
        // A block larger than the cap is not stored; the cap an insert gets bounds it below the limit.
        Self.insert(&tree, [9, 9, 9, 9], cap: 3)
        #expect(tree.lookup([9, 9, 9, 9], limit: 4).length == 0 && tree.bytes == 16)
        Self.insert(&tree, [7, 7, 7, 7, 8], cap: 5)
        #expect(tree.bytes <= 5 && tree.lookup([7, 7, 7, 7, 8], limit: 5).length == 5)
        #expect(tree.evictOne() && tree.evictOne() && !tree.evictOne() && tree.isEmpty && tree.bytes == 0)
    }

    @Test func aZeroLimitStoresNothing() {
        var tree = Tree(blockSize: 4, limit: 0)
        Self.insert(&tree, [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(tree.isEmpty && tree.bytes == 0 && tree.lookup([1, 2, 3, 4, 5], limit: 4).length == 0)
        var negative = Tree(blockSize: 0, limit: -5)
        Self.insert(&negative, [1, 2, 3])
        #expect(negative.isEmpty && negative.limit == 0 && negative.blockSize == 1)
    }

    @Test func forgettingAnOwnerKeepsWhatOthersClaim() {
        var tree = Tree(blockSize: 4, limit: 100)
        let system: [Int32] = [1, 2, 3, 4, 5, 6, 7, 8]
        Self.insert(&tree, system + [10, 11, 12, 13, 14], owner: 1)
        Self.insert(&tree, system + [20, 21], owner: 2)
        Self.insert(&tree, [30, 31, 32, 33, 34], owner: nil)
        #expect(tree.count(ownedBy: 1) == 4 && tree.count(ownedBy: 2) == 3 && tree.count(ownedBy: nil) == 2)
        tree.forget(1)
        #expect(tree.count(ownedBy: 1) == 0 && tree.count(ownedBy: 2) == 3 && tree.bytes == 15)
        // Session 1's own continuation is gone; the system prompt stays for session 2.
        #expect(tree.lookup(system + [10, 11, 12, 13, 14], limit: 13).length == 8)
        #expect(tree.lookup(system + [20, 21, 0], limit: 10).length == 10)
        tree.forget(2)
        #expect(tree.count(ownedBy: 2) == 0 && tree.nodes.count == 2 && tree.bytes == 5)
        tree.forget(99)
        #expect(tree.nodes.count == 2)
    }

    /// Random prompts from a small alphabet (many shared prefixes), owners, caps and forgets: the
    /// bytes stay within the limit and equal the nodes' sum, every match spells the prompt's prefix,
    /// and an owner's forget leaves it nothing.
    @Test func randomWorkloadsKeepTheInvariants() {
        var random = SystemRandomNumberGenerator()
        for round in 0..<40 {
            var tree = Tree(blockSize: [1, 3, 4, 8][round % 4], limit: [0, 7, 30, 200][round / 10])
            for _ in 0..<60 {
                let ids = (0..<Int.random(in: 0...20, using: &random)).map { _ in Int32.random(in: 0...2, using: &random) }
                let owner: UInt64? = Bool.random(using: &random) ? nil : UInt64.random(in: 1...3, using: &random)
                switch Int.random(in: 0..<6, using: &random) {
                case 0..<3: Self.insert(&tree, ids, owner: owner, cap: Int.random(in: -5...250, using: &random))
                case 3, 4:
                    let limit = Int.random(in: -2...25, using: &random)
                    let match = tree.lookup(ids, limit: limit)
                    #expect(match.length <= max(0, min(limit, ids.count)))
                    #expect(Self.copied(tree, match) == Array(ids.prefix(match.length)))
                default:
                    if let owner {
                        tree.forget(owner)
                        #expect(tree.count(ownedBy: owner) == 0)
                    }
                }
                #expect(tree.bytes <= tree.limit && tree.bytes == tree.nodes.values.reduce(0) { $0 + $1.bytes })
                #expect(tree.nodes.values.allSatisfy { node in
                    node.parent.map { tree.nodes[$0]?.owners.isSuperset(of: node.owners) == true } ?? true
                })
            }
        }
    }
}
