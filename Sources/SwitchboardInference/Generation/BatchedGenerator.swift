import Foundation
import Synchronization

/// Generates for several requests at once on one model (continuous batching). Requests join and
/// leave between steps: a new request takes a free sequence slot and its prompt is prefilled one
/// slice per step, interleaved with decode steps of the others (so a long prompt stalls them for one
/// slice at most); every step then decodes one token of each running sequence in a single forward
/// pass. A finished or cancelled sequence leaves at once and frees its slot. When every slot is
/// taken, requests wait in arrival order (nothing is dropped; the runtime's load balancer orders
/// them by priority before they get here).
///
/// The work runs on one dedicated thread (`BatchLoop`), outside Swift's cooperative pool, so the
/// seconds-long synchronous forward passes never hold a pool thread. With capacity 1 it is the
/// single-stream generator. Outputs are identical to running each request alone on an
/// `InferenceSession` (`GenerationLoop`, the reference path).
public final class BatchedGenerator: Sendable {
    public let model: LanguageModel
    /// Sequences decoded together at most.
    public let capacity: Int
    public let contextLength: Int
    /// Resident KV cache memory all sequences and the prefix cache may hold together (bytes; nil:
    /// every slot a full context, and the prefix cache its limit); requests beyond it wait.
    public let kvBudgetBytes: Int?
    private let inbox: BatchInbox

    /// - Parameters:
    ///   - capacity: sequences at once; each reserves a KV cache of `contextLength` positions
    ///     (allocated lazily: resident memory grows with the tokens actually held).
    ///   - reusePrefixes: keep each finished request's KV cache in its slot, and start a request that
    ///     begins with the same tokens (a conversation's next turn) from there; and, where the model's
    ///     bits do not depend on the batch (`BatchedSession.sharesPrefixes`), keep prompts' keys and
    ///     values in a prefix cache that every later request, of any session, starts from.
    ///   - kvBudgetBytes: the ceiling on KV cache memory, all sequences and the prefix cache together
    ///     (nil: every slot a full context, and the prefix cache its limit). A request reserves its
    ///     prompt plus `maxTokens` positions; one that does not fit waits for running ones to finish
    ///     (kept caches of idle slots are dropped first, then the prefix cache's least recently used
    ///     blocks), and one larger than the whole budget fails with `InferenceError.kvBudgetExceeded`.
    ///   - prefixCacheBytes: the most the prefix cache holds (nil: one sequence's full context; 0: no
    ///     cache). Its bytes count against `kvBudgetBytes` with the slots'; requests that need the
    ///     room evict its least recently used blocks.
    public convenience init<C: Clock & Sendable>(model: LanguageModel, capacity: Int, contextLength: Int? = nil, threads: Int = 2,
                                                 reusePrefixes: Bool = true, kvBudgetBytes: Int? = nil, prefixCacheBytes: Int? = nil,
                                                 clock: C = ContinuousClock()) where C.Duration == Duration {
        self.init(model: model, capacity: capacity, contextLength: contextLength, threads: threads, reusePrefixes: reusePrefixes,
                  kvBudgetBytes: kvBudgetBytes, prefixCacheBytes: prefixCacheBytes, clock: clock, decodeCost: DecodeCost())
    }

    /// `decodeCost`: what a pass is taken to cost at first (learned from the passes unless frozen;
    /// tests freeze it so how much is drafted does not depend on the machine's speed).
    init<C: Clock & Sendable>(model: LanguageModel, capacity: Int, contextLength: Int?, threads: Int, reusePrefixes: Bool,
                              kvBudgetBytes: Int?, prefixCacheBytes: Int?, clock: C, decodeCost: DecodeCost) where C.Duration == Duration {
        self.model = model
        self.capacity = max(1, min(capacity, 256))
        let length = max(1, min(contextLength ?? model.contextLength, model.contextLength))
        self.contextLength = length
        let budget = kvBudgetBytes.map { max(0, $0) }
        self.kvBudgetBytes = budget
        let inbox = BatchInbox()
        self.inbox = inbox
        let origin = clock.now
        let now: @Sendable () -> Duration = { origin.duration(to: clock.now) }
        let capacity = self.capacity
        let thread = Thread {
            Thread.current.name = "switchboard.batch"
            let session = BatchedSession(model: model, capacity: capacity, contextLength: length, threads: threads)
            var loop = BatchLoop(session: session, inbox: inbox, reusePrefixes: reusePrefixes, budgetBytes: budget,
                                 prefixCacheBytes: prefixCacheBytes, decodeCost: decodeCost, now: now)
            loop.run()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit { inbox.close() }

    /// KV cache bytes one sequence of `contextLength` positions needs (fp16 keys and values).
    public static func kvBytesPerSequence(model: LanguageModel, contextLength: Int) -> Int {
        let a = model.architecture
        // Saturating: a corrupt header's sizes must not trap here.
        return [a.blockCount, a.headCountKV, a.keyLength, 2 * MemoryLayout<KVCache.Cell>.stride, max(1, contextLength)].reduce(1) { product, factor in
            let (value, overflow) = product.multipliedReportingOverflow(by: factor)
            return overflow ? .max : value
        }
    }

    /// Tokenizes `prompt` with the model's tokenizer and streams its events (`events(ids:options:)`).
    public func events(prompt: String, options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<GenerationEvent, any Error> {
        events(ids: model.tokenizer.encode(prompt, addBOS: options.addBOS, parseSpecial: options.parseSpecial), options: options)
    }

    /// Streams token events for the prompt `ids`, then one `.finished(summary)` (or an error).
    /// Ending the iteration stops the sequence before its next step.
    public func events(ids: [Int32], options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<GenerationEvent, any Error> {
        events(ids: ids, options: options) { $0 }
    }

    /// `events` through `transform`, called on the batch thread: nil skips an event; a thrown error
    /// ends the sequence and the stream with it. The buffer holds everything one generation emits.
    public func events<Element: Sendable>(ids: [Int32], options: GenerationOptions,
                                          transform: @escaping @Sendable (GenerationEvent) throws -> Element?)
        -> AsyncThrowingStream<Element, any Error> {
        events(ids: ids, options: options, owner: nil, transform: transform)
    }

    /// `events` of a request whose prompt's cached blocks `owner` (a session) claims (`forgetPrefixes`).
    package func events(ids: [Int32], options: GenerationOptions, owner: UInt64?) -> AsyncThrowingStream<GenerationEvent, any Error> {
        events(ids: ids, options: options, owner: owner) { $0 }
    }

    package func events<Element: Sendable>(ids: [Int32], options: GenerationOptions, owner: UInt64?,
                                           transform: @escaping @Sendable (GenerationEvent) throws -> Element?)
        -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Element.self, bufferingPolicy: .bufferingOldest(max(1, options.maxTokens) + 2))
        let cancellation = CancellationFlag()
        continuation.onTermination = { _ in cancellation.cancel() }
        submit(ids: ids, options: options, owner: owner, cancellation: cancellation, emit: { event in
            do {
                if let element = try transform(event) { continuation.yield(element) }
                if case .finished = event { continuation.finish() }
            } catch {
                cancellation.cancel()
                continuation.finish(throwing: error)
            }
        }, fail: { continuation.finish(throwing: $0) })
        return stream
    }

    /// The level below `events`, for a caller that owns the output (the on-device provider yields
    /// straight into its caller's stream): `emit` gets every event on the batch thread, `.finished`
    /// last, or `fail` is called once instead (an error, or `CancellationError` for a request
    /// cancelled before it started). Setting `cancellation` stops the sequence before its next step
    /// (it then finishes with `FinishReason.cancelled`). `owner` (a session) claims the prompt's
    /// blocks in the prefix cache (`forgetPrefixes`); nil: no session, cleared only by eviction.
    package func submit(ids: [Int32], options: GenerationOptions, owner: UInt64? = nil, cancellation: CancellationFlag,
                        emit: @escaping @Sendable (GenerationEvent) -> Void, fail: @escaping @Sendable (any Error) -> Void) {
        let request = BatchRequest(ids: ids, options: options, owner: owner, cancellation: cancellation, emit: emit, fail: fail)
        if !inbox.submit(request) { fail(InferenceError.cancelled) }
    }

    /// Removes `owner`'s claim on the prefix cache (a session's reset): blocks no other session's
    /// prompts hold go, and so do the kept caches of idle slots whose last request was `owner`'s.
    /// Returns once the batch thread has done it (between two steps).
    package func forgetPrefixes(owner: UInt64) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            inbox.send(.forget(owner: owner, done: { done.resume() }))
        }
    }

    /// What the prefix cache holds now (read on the batch thread between two steps).
    package func prefixCacheStatus() async -> PrefixCacheStatus {
        await withCheckedContinuation { (done: CheckedContinuation<PrefixCacheStatus, Never>) in
            inbox.send(.status(done: { done.resume(returning: $0) }))
        }
    }
}

/// Work for the batch thread besides requests: run between two steps, in the order sent.
enum BatchCommand: Sendable {
    case forget(owner: UInt64, done: @Sendable () -> Void)
    case status(done: @Sendable (PrefixCacheStatus) -> Void)
}

/// One request as the batch thread sees it; `emit` and `fail` are called on that thread.
struct BatchRequest: Sendable {
    let ids: [Int32]
    let options: GenerationOptions
    /// The session whose prompt this is (`BatchedGenerator.submit`).
    let owner: UInt64?
    let cancellation: CancellationFlag
    let emit: @Sendable (GenerationEvent) -> Void
    let fail: @Sendable (any Error) -> Void
}

/// Requests waiting for the batch thread, in arrival order; the semaphore wakes an idle thread.
final class BatchInbox: Sendable {
    private struct Contents {
        var waiting: [BatchRequest] = []
        var commands: [BatchCommand] = []
        var isClosed = false
    }
    private let contents = Mutex(Contents())
    private let signal = DispatchSemaphore(value: 0)

    func submit(_ request: BatchRequest) -> Bool {
        let accepted = contents.withLock { c in
            guard !c.isClosed else { return false }
            c.waiting.append(request)
            return true
        }
        if accepted { signal.signal() }
        return accepted
    }

    /// Queues `command` for the batch thread; after `close` the thread is gone (or going), and a
    /// closed engine holds no cache: the command is answered here.
    func send(_ command: BatchCommand) {
        let accepted = contents.withLock { c in
            guard !c.isClosed else { return false }
            c.commands.append(command)
            return true
        }
        if accepted { signal.signal(); return }
        switch command {
        case .forget(_, let done): done()
        case .status(let done): done(PrefixCacheStatus())
        }
    }

    func takeCommands() -> [BatchCommand] {
        contents.withLock { c in
            defer { c.commands.removeAll() }
            return c.commands
        }
    }

    func close() {
        contents.withLock { $0.isClosed = true }
        signal.signal()
    }

    /// Up to `limit` waiting requests, oldest first.
    func take(upTo limit: Int) -> [BatchRequest] {
        guard limit > 0 else { return [] }
        return contents.withLock { c in
            let taken = Array(c.waiting.prefix(limit))
            c.waiting.removeFirst(taken.count)
            return taken
        }
    }

    var isClosed: Bool { contents.withLock { $0.isClosed } }

    /// Sleeps until something is submitted or the inbox closes.
    func wait() { signal.wait() }
}
