/// What an engine's prefix cache (`PrefixTree`, inside `BatchedSession`) holds: for reports and tests.
package struct PrefixCacheStatus: Sendable, Equatable {
    /// Cached blocks (a prompt's tail counts as one) and the tokens in them.
    package var blocks: Int
    package var tokens: Int
    /// Bytes of keys and values held, and the most it may hold (0: off).
    package var bytes: Int
    package var limit: Int
    /// Blocks each owner (a session) holds a claim on; blocks of requests without an owner are not listed.
    package var blocksByOwner: [UInt64: Int]

    package init(blocks: Int = 0, tokens: Int = 0, bytes: Int = 0, limit: Int = 0, blocksByOwner: [UInt64: Int] = [:]) {
        self.blocks = blocks; self.tokens = tokens; self.bytes = bytes; self.limit = limit; self.blocksByOwner = blocksByOwner
    }
}
