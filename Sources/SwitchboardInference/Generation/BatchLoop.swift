/// The batch thread's loop (`BatchedGenerator`): admits waiting requests into free slots while the
/// KV budget has room (oldest first; the head of the line waits rather than being overtaken), feeds
/// one prefill slice, decodes one token of every running sequence, and retires finished ones. Plain
/// synchronous code on the thread that owns the `BatchedSession`.
struct BatchLoop {
    private struct Running {
        let request: BatchRequest
        let slot: Int
        var decoder: SequenceDecoder
        /// Prompt tokens fed so far (or found in the slot's cache); the sequence decodes once it
        /// reaches the prompt's length.
        var fed = 0
        /// Leading prompt tokens whose keys and values were already cached.
        var reused = 0
        /// The token to feed at the next decode step.
        var next: Int32 = 0
        let started: Duration
        var prefilled: Duration = .zero
        var firstToken: Duration?
        /// Set when the sequence stops; it is retired after the current step.
        var finishing: FinishReason?
        /// Set when its decoder fails (a constrained document with no allowed token).
        var error: InferenceError?
        /// Its session was reset while it ran: nothing of it is kept (prefix cache, slot cache).
        var forgotten = false
        /// Decode passes it took part in, and drafted tokens they confirmed.
        var passes = 0, drafted = 0, accepted = 0
        /// The tokens drafted after `next` in the current pass, and how many rows of it are still
        /// live (each row's input was confirmed by the row before).
        var drafts: [Int32] = []
        var draftSource: DraftSource?
        var liveRows = 0
        /// Where `next` goes in the cache in the current pass.
        var base = 0
        var drafting = Drafting()
        var decoding: Bool { fed == request.ids.count }
    }

    let session: BatchedSession
    let inbox: BatchInbox
    let now: @Sendable () -> Duration
    /// Keep a finished sequence's cache for a later request that starts with the same tokens.
    let reusePrefixes: Bool
    private var running: [Running] = []
    /// Taken from the inbox, not yet admitted (no free slot or no KV room), oldest first.
    private var waiting: [BatchRequest] = []
    private var freeSlots: [Int]
    private var budget: KVBudget
    /// Every token's bytes, built at the first constrained request (once per model).
    private var vocabulary: TokenVocabulary?
    private var steps: [(slot: Int, token: Int32)] = []
    /// The sequence (index into `running`) and row within it of each step of a decode pass.
    private var rowOwners: [(sequence: Int, row: Int)] = []
    private var cost = DecodeCost()
    /// The owner (session) of each slot's last request: a reset session's kept caches are dropped.
    private var owners: [UInt64?]

    /// - Parameters:
    ///   - budgetBytes: resident KV bytes all sequences and the prefix cache may hold together (nil:
    ///     every slot a full context, and the prefix cache its limit).
    ///   - prefixCacheBytes: the most the prefix cache holds (nil: one sequence's full context; 0: no
    ///     cache). Only with `reusePrefixes`, and only where the session `sharesPrefixes`.
    init(session: BatchedSession, inbox: BatchInbox, reusePrefixes: Bool, budgetBytes: Int? = nil, prefixCacheBytes: Int? = nil,
         decodeCost: DecodeCost = DecodeCost(), now: @escaping @Sendable () -> Duration) {
        self.session = session
        cost = decodeCost
        let one = session.kvBytes(positions: session.contextLength), full = one.multipliedReportingOverflow(by: session.capacity)
        session.configurePrefixCache(limit: reusePrefixes ? max(0, prefixCacheBytes ?? one) : 0)
        // Without a ceiling, every slot may hold a full context and the prefix cache its own limit besides.
        let unbounded = full.partialValue.addingReportingOverflow(session.prefixCacheStatus.limit)
        let limit = full.overflow || unbounded.overflow ? Int.max : unbounded.partialValue
        budget = KVBudget(limit: budgetBytes ?? limit, slots: session.capacity)
        owners = [UInt64?](repeating: nil, count: session.capacity)
        self.inbox = inbox
        self.reusePrefixes = reusePrefixes
        self.now = now
        freeSlots = Array((0..<session.capacity).reversed())
        steps.reserveCapacity(session.rowsPerPass)
        rowOwners.reserveCapacity(session.rowsPerPass)
    }

    mutating func run() {
        while true {
            admit()
            if running.isEmpty {
                if inbox.isClosed {
                    for request in waiting { request.fail(InferenceError.cancelled) }
                    serve(inbox.takeCommands())
                    return
                }
                inbox.wait()
                continue
            }
            retireCancelled()
            prefillOneSlice()
            decodeStep()
        }
    }

    private mutating func admit() {
        serve(inbox.takeCommands())
        waiting += inbox.take(upTo: .max)
        waiting.removeAll { request in
            guard request.cancellation.isCancelled else { return false }
            request.fail(CancellationError())
            return true
        }
        while let request = waiting.first, !freeSlots.isEmpty {
            let ids = request.ids, need = kvBytes(of: request)
            if let error = refusal(of: request, needing: need) {
                request.fail(error); waiting.removeFirst(); continue
            }
            let choice = chooseSlot(for: ids)
            guard makeRoom(need, slot: freeSlots[choice]) else { return }
            if request.options.constraint != nil, vocabulary == nil {
                vocabulary = TokenVocabulary(tokenizer: session.model.tokenizer, stopIDs: session.model.stopTokenIDs)
            }
            waiting.removeFirst()
            let decoder: SequenceDecoder
            do {
                decoder = try SequenceDecoder(model: session.model, prompt: ids, options: request.options,
                                              room: session.contextLength - ids.count, vocabulary: vocabulary)
            } catch {
                request.fail(error); continue
            }
            let slot = freeSlots.remove(at: choice)
            var kept = reusePrefixes ? session.reuse(slot, for: ids) : 0
            if !reusePrefixes { session.reset(slot) }
            // Pages an earlier, longer sequence left behind go back before this one grows.
            session.trim(slot, to: kept)
            // The prefix cache may hold more of this prompt's start (another session's, or another slot's).
            if reusePrefixes { kept = session.share(into: slot, for: ids) }
            budget.set(slot, need)
            owners[slot] = request.owner
            running.append(Running(request: request, slot: slot, decoder: decoder, fed: kept, reused: kept, started: now()))
        }
    }

    /// Why `request` (needing `need` KV bytes) can never run here, if it cannot.
    private func refusal(of request: BatchRequest, needing need: Int) -> InferenceError? {
        let ids = request.ids
        guard !ids.isEmpty else { return .emptyPrompt }
        guard ids.count <= session.contextLength else { return .contextLengthExceeded(limit: session.contextLength, requested: ids.count) }
        guard budget.decide(need, slot: 0) != .reject else { return .kvBudgetExceeded(neededBytes: need, budgetBytes: budget.limit) }
        return nil
    }

    /// The KV memory `request` may grow to.
    private func kvBytes(of request: BatchRequest) -> Int {
        session.kvBytes(positions: KVBudget.positions(prompt: request.ids.count, maxTokens: request.options.maxTokens,
                                                      contextLength: session.contextLength))
    }

    /// Whether `need` KV bytes fit with `slot` taken, after dropping idle slots' kept caches (the
    /// largest first), then the prefix cache's least recently used blocks, if that is what it takes.
    private mutating func makeRoom(_ need: Int, slot: Int) -> Bool {
        while budget.decide(need, slot: slot) == .wait {
            let holding = freeSlots.filter { $0 != slot && budget.held[$0] > 0 }
            if let idle = holding.max(by: { budget.held[$0] < budget.held[$1] }) {
                session.trim(idle, to: 0)
                budget.set(idle, 0)
            } else if budget.fitsWithoutCache(need, slot: slot), session.evictPrefix() {
                budget.setCached(session.prefixCacheBytes)
            } else {
                return false
            }
        }
        return true
    }

    /// Runs the commands the generator sent (a session's reset, a status read) on this thread.
    private mutating func serve(_ commands: [BatchCommand]) {
        for command in commands {
            switch command {
            case .forget(let owner, let done):
                session.forgetPrefixes(owner: owner)
                budget.setCached(session.prefixCacheBytes)
                // What idle slots keep of that session's last requests goes too.
                for slot in freeSlots where owners[slot] == owner {
                    session.trim(slot, to: 0)
                    budget.set(slot, 0)
                    owners[slot] = nil
                }
                // And what its running requests would leave behind when their prompts or answers end.
                for i in running.indices where running[i].request.owner == owner { running[i].forgotten = true }
                done()
            case .status(let done):
                done(session.prefixCacheStatus)
            }
        }
    }

    /// Puts the exactly computed prompt of a sequence whose prefill just ended into the prefix cache,
    /// within the budget the slots leave.
    private mutating func storePrefix(of i: Int) {
        guard reusePrefixes, !running[i].forgotten else { return }
        session.storePrefix(of: running[i].slot, owner: running[i].request.owner, room: budget.roomForCache)
        budget.setCached(session.prefixCacheBytes)
    }

    /// The free slot (an index into `freeSlots`) whose cache holds the longest prefix of `ids` (a
    /// conversation's next turn finds its earlier turns there); failing a useful one, the free slot
    /// holding the fewest tokens.
    private func chooseSlot(for ids: [Int32]) -> Int {
        var best = freeSlots.count - 1
        if reusePrefixes {
            var bestLength = -1
            for (i, slot) in freeSlots.enumerated() {
                let length = session.reusablePrefix(slot, of: ids)
                if length > bestLength { (best, bestLength) = (i, length) }
            }
            if bestLength < 16 {
                best = freeSlots.indices.min { session.position(of: freeSlots[$0]) < session.position(of: freeSlots[$1]) } ?? best
            }
        }
        return best
    }

    private mutating func retireCancelled() {
        for i in running.indices.reversed() where running[i].request.cancellation.isCancelled {
            finish(i, reason: .cancelled)
        }
    }

    /// One slice of the oldest sequence still prefilling; when its prompt is done, its first token.
    private mutating func prefillOneSlice() {
        guard let i = running.firstIndex(where: { !$0.decoding }) else { return }
        let ids = running[i].request.ids
        // A prefix cached since admission (requests admitted together are prefilled in turn, so the
        // earlier ones' prompts are in the prefix cache by now) is copied, not recomputed.
        if reusePrefixes, running[i].fed == session.position(of: running[i].slot) {
            let shared = session.share(into: running[i].slot, for: ids)
            if shared > running[i].fed { (running[i].fed, running[i].reused) = (shared, shared) }
        }
        do {
            let started = now(), fed = running[i].fed
            let logits = try session.prefill(ids, from: fed, slot: running[i].slot)
            running[i].fed = min(ids.count, fed + session.sliceSize)
            cost.recordPrefill(rows: running[i].fed - fed, seconds: Self.seconds(now() - started))
            if let logits {
                running[i].prefilled = now() - running[i].started
                storePrefix(of: i)
                advance(i, logits, room: session.contextLength - session.position(of: running[i].slot))
                if let reason = running[i].finishing { finish(i, reason: reason) } else if let error = running[i].error { fail(i, error) }
            }
        } catch {
            fail(i, error)
        }
    }

    /// One token of every decoding sequence, with the tokens drafted after it, in one forward pass.
    /// Each sequence samples its rows in order, exactly as plain decoding would; a row counts only
    /// while the token sampled from the row before equals the draft fed in it.
    private mutating func decodeStep() {
        steps.removeAll(keepingCapacity: true)
        rowOwners.removeAll(keepingCapacity: true)
        let members = running.indices.filter { running[$0].decoding && running[$0].firstToken != nil }
        guard !members.isEmpty else { return }
        var spare = session.rowsPerPass - members.count
        let threshold = cost.threshold(sequences: members.count)
        for i in members {
            let slot = running[i].slot
            running[i].base = session.position(of: slot)
            // No lookup when no kind of draft would be worth a row this pass.
            let proposal = running[i].drafting.anyWorth(threshold: threshold) ? draft(i, rows: spare) : (tokens: [], source: nil)
            let worth = proposal.source.map { running[i].drafting.limit($0, threshold: threshold) } ?? 0
            running[i].drafts = Array(proposal.tokens.prefix(worth))
            running[i].draftSource = proposal.source
            spare -= running[i].drafts.count
            running[i].liveRows = 1
            running[i].passes += 1
            steps.append((slot, running[i].next))
            rowOwners.append((i, 0))
            for (j, token) in running[i].drafts.enumerated() {
                steps.append((slot, token))
                rowOwners.append((i, j + 1))
            }
        }
        let started = now()
        do {
            // Each sequence samples from its own logits rows while the buffer is valid.
            try session.decode(steps) { row, logits in
                let (i, j) = rowOwners[row]
                guard j < running[i].liveRows else { return }
                advance(i, logits, room: session.contextLength - running[i].base - j)
                if running[i].finishing == nil, running[i].error == nil, j < running[i].drafts.count,
                   running[i].next == running[i].drafts[j] {
                    running[i].liveRows += 1
                }
            }
        } catch {
            for i in members.reversed() { fail(i, error) }
            return
        }
        cost.recordDecode(rows: steps.count, seconds: Self.seconds(now() - started))
        for i in members {
            let confirmed = running[i].liveRows - 1
            running[i].accepted += confirmed
            running[i].drafted += running[i].drafts.count
            running[i].drafting.record(running[i].draftSource, drafted: running[i].drafts.count, confirmed: confirmed)
            session.rewind(running[i].slot, to: running[i].base + running[i].liveRows)
        }
        for i in running.indices.reversed() {
            if let reason = running[i].finishing { finish(i, reason: reason) } else if let error = running[i].error { fail(i, error) }
        }
    }

    /// Tokens that could follow sequence `i`'s next one (at most `rows`, and `Drafting.most`) and
    /// their source: none when speculation is off or has nothing to go on; never past its token limit
    /// or the context.
    private func draft(_ i: Int, rows: Int) -> (tokens: [Int32], source: DraftSource?) {
        let sequence = running[i]
        guard sequence.request.options.speculative else { return ([], nil) }
        let generated = sequence.decoder.generated
        let limit = min(rows, Drafting.most, sequence.request.options.maxTokens - generated.count - 1,
                        session.contextLength - 1 - sequence.base)
        guard limit > 0 else { return ([], nil) }
        return sequence.decoder.draft(prompt: sequence.request.ids, limit: limit)
    }

    /// Ends sequence `i`: held-back text, the summary, the stream; frees its slot.
    private mutating func finish(_ i: Int, reason: FinishReason) {
        var sequence = running.remove(at: i)
        free(sequence.slot, keeping: !sequence.forgotten)
        let start = sequence.started, request = sequence.request
        sequence.decoder.flush(reason: reason, elapsed: { self.now() - start }) { request.emit(.token($0)) }
        do { try sequence.decoder.checkComplete(reason) } catch { return request.fail(error) }
        let end = now() - start, generated = sequence.decoder.generated
        let first = sequence.firstToken ?? end
        request.emit(.finished(GenerationSummary(
            finishReason: reason, promptTokens: sequence.request.ids.count, completionTokens: generated.count, generatedIDs: generated,
            timeToFirstToken: first, prefillDuration: sequence.prefilled, decodeDuration: generated.isEmpty ? .zero : end - first,
            reusedPromptTokens: sequence.reused, decodePasses: sequence.passes,
            draftedTokens: sequence.drafted, acceptedDraftTokens: sequence.accepted)))
    }

    /// Returns `slot` to the free list; the budget keeps counting the positions it keeps for reuse
    /// (none when `keeping` is false: its session was reset).
    private mutating func free(_ slot: Int, keeping: Bool = true) {
        if !reusePrefixes || !keeping {
            session.trim(slot, to: 0)
            owners[slot] = nil
        }
        budget.set(slot, session.kvBytes(positions: session.position(of: slot)))
        freeSlots.append(slot)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    private mutating func fail(_ i: Int, _ error: any Error) {
        let sequence = running.remove(at: i)
        free(sequence.slot, keeping: !sequence.forgotten)
        sequence.request.fail(error)
    }

    /// Samples the sequence's next token from `logits` and emits it; marks it done when it stops.
    /// `room`: context positions left after the token this sequence fed last.
    private mutating func advance(_ i: Int, _ logits: UnsafeMutableBufferPointer<Float>, room: Int) {
        let start = running[i].started
        if running[i].firstToken == nil { running[i].firstToken = now() - start }
        let request = running[i].request
        do {
            let step = try running[i].decoder.step(logits, room: room, elapsed: { self.now() - start }) { token in
                request.emit(.token(token))
            }
            switch step {
            case .next(let id): running[i].next = id
            case .finished(let reason): running[i].finishing = reason
            }
        } catch {
            running[i].error = error
        }
    }
}
