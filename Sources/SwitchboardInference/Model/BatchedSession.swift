/// Several sequences over one model, stepped together (continuous batching). Each sequence slot has
/// its own KV cache and position; `decode` runs one token of every listed sequence in a single
/// forward pass (one pass over the weights for all of them), and `prefill` feeds a prompt in slices
/// that the caller interleaves with decode steps. Not thread-safe: use it from one thread.
///
/// Every sequence's numbers equal an `InferenceSession`'s running it alone: a prompt's slices are
/// computed with its whole length as the llama.cpp batch (as `InferenceSession.run` does), and a
/// decode row as a batch of one (`ForwardContext.forward(tokens:rows:)`).
public final class BatchedSession {
    public let model: LanguageModel
    /// Sequences that can run at once.
    public let capacity: Int
    /// Most tokens one sequence can hold (prompt + generated).
    public let contextLength: Int
    /// Rows of one prefill slice (the activations stay in cache).
    public let sliceSize = 64
    let context: ForwardContext
    private let caches: [KVCache]
    private var positions: [Int]
    /// The most positions each slot's cache has written since it was last trimmed (its resident part).
    private var highWater: [Int]
    /// The ids whose keys and values each slot's cache holds, in order (for prefix reuse).
    private var cachedIDs: [[Int32]]
    /// The prompt length of each slot's last request.
    private var promptLengths: [Int]
    /// How many leading positions of each slot hold exactly what a fresh prompt pass over its ids
    /// computes (prompt slices on top of such a prefix; not decoded tokens), so they can be shared.
    private var exact: [Int]
    /// Whether a prompt's keys and values are the same bits in any batch (no K-quant weights, whose
    /// llama.cpp order depends on the batch, and no sliding-window ring), so slots may share them.
    public let sharesPrefixes: Bool
    /// Prompt prefixes shared by every slot and later requests (`share`, `storePrefix`); empty
    /// unless the owner configures it (`configurePrefixCache`), and always where not `sharesPrefixes`.
    private var prefixes = PrefixTree<KVBlock>(blockSize: BatchedSession.prefixBlockSize, limit: 0)
    private var decodeTokens: [Int32]
    /// Entries of the pass being set up per slot (its drafts go to consecutive positions).
    private var pending: [Int]
    private var decodeRows: [BatchRow] = []

    /// - Parameters:
    ///   - capacity: sequences at once (at least 1); each gets a KV cache of `contextLength`
    ///     positions, allocated lazily (only the positions used become resident).
    public init(model: LanguageModel, capacity: Int, contextLength: Int? = nil, threads: Int = 2, reference: ReferenceBuild = .host) {
        let sequences = max(1, min(capacity, 256)), length = max(1, min(contextLength ?? model.contextLength, model.contextLength))
        let rows = max(sequences, 64)
        self.model = model
        self.capacity = sequences
        self.contextLength = length
        context = ForwardContext(model: model, contextLength: length, batch: rows, threads: threads, build: reference)
        caches = (0..<sequences).map { _ in KVCache(architecture: model.architecture, contextLength: length, batch: rows) }
        positions = [Int](repeating: 0, count: sequences)
        highWater = positions
        cachedIDs = [[Int32]](repeating: [], count: sequences)
        promptLengths = [Int](repeating: 0, count: sequences)
        exact = positions
        sharesPrefixes = model.architecture.slidingWindow == 0
            && model.file.tensors.allSatisfy { ![.q2_K, .q3_K, .q4_K, .q5_K, .q6_K, .q8_K].contains($0.type) }
        decodeTokens = [Int32](repeating: 0, count: rows)
        pending = [Int](repeating: 0, count: sequences)
        decodeRows.reserveCapacity(rows)
    }

    /// Tokens in sequence `slot`'s cache.
    public func position(of slot: Int) -> Int { positions[slot] }

    /// Empties sequence `slot` for a new request (its cache is overwritten as the new one grows).
    public func reset(_ slot: Int) { reuse(slot, for: []) }

    /// How many leading `ids` sequence `slot`'s cache already holds.
    public func cachedPrefix(_ slot: Int, of ids: [Int32]) -> Int {
        let cached = cachedIDs[slot]
        var n = 0
        while n < min(cached.count, ids.count), cached[n] == ids[n] { n += 1 }
        return n
    }

    /// How many leading `ids` a request could keep from `slot`: the cached prefix, when it covers
    /// the slot's whole last prompt — `ids` continue that conversation. A repeated or shorter prompt
    /// keeps nothing: recomputing it fresh keeps identical requests' answers identical (reused
    /// positions were computed in other batches, which moves the last bits).
    public func reusablePrefix(_ slot: Int, of ids: [Int32]) -> Int {
        let common = cachedPrefix(slot, of: ids)
        guard promptLengths[slot] > 0, common >= promptLengths[slot], ids.count > promptLengths[slot] else { return 0 }
        return min(common, ids.count - 1)
    }

    /// Starts a request on `slot`, keeping the keys and values of `reusablePrefix` (never the last
    /// id, whose logits the request needs); returns how many were kept.
    @discardableResult
    public func reuse(_ slot: Int, for ids: [Int32]) -> Int {
        let kept = reusablePrefix(slot, of: ids)
        positions[slot] = kept
        cachedIDs[slot].removeSubrange(kept...)
        promptLengths[slot] = ids.count
        exact[slot] = min(exact[slot], kept)
        return kept
    }

    /// Copies into `slot` the longest prefix of `ids` (never the last id) that the prefix cache holds
    /// (`PrefixTree`: blocks earlier prompts, concurrent or finished, of any session left there), when
    /// that is longer than what `slot` holds and at least `minimum` ids; returns the positions `slot`
    /// now holds. Requests with one system prompt compute it once. Only where `sharesPrefixes`: there
    /// the copied bits equal the ones the request would compute, so its output is unchanged.
    @discardableResult
    public func share(into slot: Int, for ids: [Int32], minimum: Int = 8) -> Int {
        guard sharesPrefixes, !prefixes.isEmpty else { return positions[slot] }
        let match = prefixes.lookup(ids, limit: min(ids.count - 1, contextLength))
        guard match.length >= minimum, match.length > positions[slot] else { return positions[slot] }
        var at = 0
        for step in match.path {
            guard let block = prefixes.payload(step.node) else { break }
            caches[slot].load(block, count: step.count, at: at)
            at += step.count
        }
        positions[slot] = at
        highWater[slot] = max(highWater[slot], at)
        cachedIDs[slot] = Array(ids[0..<at])
        exact[slot] = at
        return at
    }

    /// Stores the positions of `slot` a fresh prompt pass computed (its `exact` prefix) in the prefix
    /// cache, owned by `owner`, keeping the cache within `room` bytes (and its own limit) by evicting
    /// its least recently used blocks. Only where `sharesPrefixes`.
    func storePrefix(of slot: Int, owner: UInt64?, room: Int) {
        guard sharesPrefixes, prefixes.limit > 0 else { return }
        let cache = caches[slot], layers = model.architecture.blockCount, width = cache.width
        prefixes.insert(cachedIDs[slot], count: min(exact[slot], cachedIDs[slot].count), owner: owner, cap: room,
                        bytesFor: { KVBlock.bytes(count: $0, layers: layers, width: width) }, make: { cache.block($0) })
    }

    /// Bytes the prefix cache holds.
    var prefixCacheBytes: Int { prefixes.bytes }

    /// Sets the prefix cache's ceiling (emptying it); 0 turns it off.
    func configurePrefixCache(limit: Int) { prefixes = PrefixTree(blockSize: Self.prefixBlockSize, limit: sharesPrefixes ? limit : 0) }

    /// Drops the prefix cache's least recently used block; false when it is empty.
    func evictPrefix() -> Bool { prefixes.evictOne() }

    /// Removes `owner`'s claim on cached prefixes; blocks nobody else owns are dropped.
    func forgetPrefixes(owner: UInt64) { prefixes.forget(owner) }

    /// What the prefix cache holds now.
    var prefixCacheStatus: PrefixCacheStatus {
        PrefixCacheStatus(blocks: prefixes.nodes.count, tokens: prefixes.cachedTokens, bytes: prefixes.bytes, limit: prefixes.limit,
                          blocksByOwner: prefixes.nodes.values.reduce(into: [:]) { counts, node in
                              for owner in node.owners { if let owner { counts[owner, default: 0] += 1 } }
                          })
    }

    /// Tokens per prefix cache block: long enough that the per-node bookkeeping is small next to a
    /// block's keys and values (~0.7 MB for SmolLM2), short enough that a prompt's tail block, which
    /// differs between requests, wastes little.
    static let prefixBlockSize = 32

    /// Resident KV bytes of one sequence holding `positions` positions.
    public func kvBytes(positions: Int) -> Int { caches.first?.residentBytes(positions: positions) ?? 0 }

    /// Keeps the first `length` positions of sequence `slot` and hands the memory of the rest back
    /// (its KV budget, `KVBudget`); 0 empties the slot.
    public func trim(_ slot: Int, to length: Int) {
        let kept = max(0, min(length, positions[slot]))
        exact[slot] = min(exact[slot], kept)
        if highWater[slot] > kept { caches[slot].release(from: kept, upTo: highWater[slot]) }
        highWater[slot] = kept
        positions[slot] = kept
        cachedIDs[slot].removeSubrange(min(kept, cachedIDs[slot].count)...)
    }

    /// Checks that `count` more tokens fit in sequence `slot` and are valid ids.
    func validate(_ ids: ArraySlice<Int32>, slot: Int) throws(InferenceError) {
        guard !ids.isEmpty else { throw .emptyPrompt }
        let vocabulary = model.vocabularySize
        if let bad = ids.first(where: { $0 < 0 || Int($0) >= vocabulary }) { throw .invalidToken(bad) }
        guard positions[slot] + ids.count <= contextLength else {
            throw .contextLengthExceeded(limit: contextLength, requested: positions[slot] + ids.count)
        }
    }

    /// Feeds `ids[offset..<offset+n]` (at most one slice) of a prompt whose full length is `total`
    /// (the llama.cpp batch its slices belong to) into sequence `slot`; returns the logits after the
    /// slice's last token when it is the prompt's last slice (nil otherwise). The buffer is valid
    /// until the next call.
    public func prefill(_ ids: [Int32], from offset: Int, slot: Int) throws(InferenceError) -> UnsafeMutableBufferPointer<Float>? {
        let n = min(sliceSize, ids.count - offset)
        try validate(ids[offset..<(offset + n)], slot: slot)
        let isLast = offset + n == ids.count
        let batch = min(512, ids.count - offset / 512 * 512)
        var result: UnsafeMutableBufferPointer<Float>?
        let vocabulary = context.pass.output.rows
        ids.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            context.forward(tokens: base + offset, count: n, batch: batch, cache: caches[slot], start: positions[slot],
                            logitsFrom: isLast ? n - 1 : n) { _, logits in
                result = UnsafeMutableBufferPointer(start: logits, count: vocabulary)
            }
        }
        if exact[slot] == positions[slot] { exact[slot] += n }
        positions[slot] += n
        highWater[slot] = max(highWater[slot], positions[slot])
        cachedIDs[slot] += ids[offset..<(offset + n)]
        return result
    }

    /// Rows one forward pass can hold (decoded tokens of all sequences together).
    public var rowsPerPass: Int { context.scratch.batch }

    /// Decodes each `(slot, token)` in one forward pass and calls `onLogits(index, logits)` for each
    /// entry, in order (buffers valid during the call only). A slot may appear several times: its
    /// entries go to consecutive positions (a token and the drafts after it), each computed as a
    /// step of its own (the rows of a pass are independent one-token steps, so the bits equal
    /// feeding them one pass at a time); `rewind` drops the ones the model did not confirm.
    public func decode(_ steps: [(slot: Int, token: Int32)],
                       onLogits: (Int, UnsafeMutableBufferPointer<Float>) -> Void) throws(InferenceError) {
        guard !steps.isEmpty else { return }
        guard steps.count <= rowsPerPass else { throw .batchTooLarge(limit: rowsPerPass, requested: steps.count) }
        decodeRows.removeAll(keepingCapacity: true)
        // Also on a refused step: a slot's next pass must not start past its position.
        defer { for step in steps where step.slot >= 0 && step.slot < capacity { pending[step.slot] = 0 } }
        for (i, step) in steps.enumerated() {
            guard step.slot >= 0, step.slot < capacity else { throw .batchTooLarge(limit: capacity, requested: step.slot + 1) }
            let position = positions[step.slot] + pending[step.slot]
            guard step.token >= 0, Int(step.token) < model.vocabularySize else { throw .invalidToken(step.token) }
            guard position < contextLength else { throw .contextLengthExceeded(limit: contextLength, requested: position + 1) }
            decodeTokens[i] = step.token
            decodeRows.append(BatchRow(cache: caches[step.slot], position: position))
            pending[step.slot] += 1
        }
        let vocabulary = context.pass.output.rows
        decodeTokens.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            context.forward(tokens: base, rows: decodeRows) { row, logits in
                onLogits(row, UnsafeMutableBufferPointer(start: logits, count: vocabulary))
            }
        }
        for step in steps {
            positions[step.slot] += 1
            highWater[step.slot] = max(highWater[step.slot], positions[step.slot])
            cachedIDs[step.slot].append(step.token)
        }
    }

    /// Forgets sequence `slot`'s positions from `length` on (drafted tokens the model did not
    /// confirm). Their cells stay resident and are overwritten as the sequence grows again;
    /// attention never reads past a row's own position.
    public func rewind(_ slot: Int, to length: Int) {
        let kept = max(0, min(length, positions[slot]))
        positions[slot] = kept
        exact[slot] = min(exact[slot], kept)
        cachedIDs[slot].removeSubrange(min(kept, cachedIDs[slot].count)...)
    }
}
