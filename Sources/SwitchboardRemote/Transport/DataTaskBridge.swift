import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import SwitchboardCore

/// Bridges one URLSession data task to async code: the response head through a continuation, the body
/// as chunks pulled by the consumer. Buffering is bounded: a consumer that falls more than
/// `maxBuffered` bytes behind fails the stream (URLSession on Linux cannot pause a receive), and a body
/// past `maxBody` decoded bytes (a decompression bomb) is refused as it arrives.
/// Timers: a deadline until the head (or, for whole-body reads, until the end) and, from the head on,
/// an idle timer on the network: it fires when no bytes arrived for `idleTimeout` (checked lazily, so
/// between one and two `idleTimeout`s), whether or not the consumer is waiting. Tying it to the
/// consumer's wait made it depend on the consumer's task being scheduled: with the cooperative pool
/// busy the timer was never armed and the server's own close surfaced as a URLError.
///
/// Closing: a local end once the body has begun (abort, idle timeout, overflow, a consumer that let
/// go) fails the consumer at once and drops every later byte, but the data task is cancelled only
/// `closeGrace` later, from the timer queue, and only if it has not completed by then. `URLSessionTask.cancel()` racing the task's
/// own completion crashes swift-corelibs-foundation ("Trying to access a behaviour for a task that
/// in not in the registry", upstream issues 3292/3296: cancel's block reports the failure after the
/// finished task left the session's registry). It happened when a fast server finished sending
/// forty 1 MB events just as the consumer gave up (3 crashed processes in 300 rounds; 0 in 600 since):
/// a server that is done completes within the grace, one that keeps the connection open gets it closed.
final class DataTaskBridge: NSObject, URLSessionDataDelegate, Sendable {
    struct Head: Sendable {
        var status: Int
        var headers: [String: String]
    }

    private struct State {
        var task: URLSessionDataTask?
        var head: Head?
        var headWaiter: CheckedContinuation<Head, any Error>?
        var chunks: [Data] = []
        var chunkStart = 0
        var buffered = 0
        var completed = false
        /// How the network ended the body; delivered after the buffered chunks.
        var endError: ProviderError?
        /// A local abort (cancel, timeout, overflow); delivered at once.
        var abort: ProviderError?
        var bodyWaiter: CheckedContinuation<Data?, any Error>?
        var idleTimer: TimeoutHandle?
        var deadlineTimer: TimeoutHandle?
        /// Counts received chunks; the idle timer compares it with the count when it was armed.
        var activity = 0
        var deadlineCoversBody = false
        /// Decoded body bytes received so far.
        var received = 0
        /// URLSession reported the task's completion: it must never be cancelled after this.
        var taskFinished = false
        /// The deferred cancel, once the bridge has decided to close.
        var closeTimer: TimeoutHandle?
    }

    /// How long a locally ended transfer may finish on its own before it is cancelled.
    static let closeGrace: Duration = .milliseconds(250)

    private let state = Lock(State())
    private let timers: TimeoutScheduler
    private let maxBuffered: Int
    private let idleTimeout: Duration
    private let maxBody: Int

    init(timers: TimeoutScheduler, maxBuffered: Int, idleTimeout: Duration, maxBody: Int = .max) {
        self.timers = timers; self.maxBuffered = maxBuffered; self.idleTimeout = idleTimeout; self.maxBody = maxBody
        super.init()
    }

    convenience init(clock: ClockSource, maxBuffered: Int, idleTimeout: Duration, maxBody: Int = .max) {
        self.init(timers: .clock(clock), maxBuffered: maxBuffered, idleTimeout: idleTimeout, maxBody: maxBody)
    }

    /// Starts the deadline: until the response head, or until the body ends when `coversBody`.
    func start(_ task: URLSessionDataTask, deadline: Duration, coversBody: Bool) {
        state.withLock { s in s.task = task }
        armDeadline(deadline, coversBody: coversBody)
        task.resume()
    }

    /// Arms the request deadline (separate from `start` so tests drive it without a running task).
    func armDeadline(_ deadline: Duration, coversBody: Bool) {
        let timer = timers.after(deadline) { self.abort(.timeout) }
        let stale: TimeoutHandle? = state.withLock { s in
            // Already ended (aborted or completed): the timer has nothing left to guard.
            guard s.abort == nil, !s.completed else { return timer }
            s.deadlineTimer = timer; s.deadlineCoversBody = coversBody
            return nil
        }
        stale?.cancel()
    }

    /// Why the bridge ended the task itself, if it did (timeout, cancellation, overflow).
    var abortReason: ProviderError? { state.withLock { $0.abort } }

    func awaitHead() async throws -> Head {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Head, any Error>) in
                let ready: Result<Head, ProviderError>? = state.withLock { s in
                    if let abort = s.abort { return .failure(abort) }
                    if let head = s.head { return .success(head) }
                    if s.completed { return .failure(s.endError ?? .transport("the connection closed before a response")) }
                    s.headWaiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            self.abort(.cancelled)
        }
    }

    /// The next body chunk; nil at the end of the body.
    func nextChunk() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let ready: Result<Data?, ProviderError>? = state.withLock { s in
                    if let abort = s.abort { return .failure(abort) }
                    if s.chunkStart < s.chunks.count {
                        let chunk = s.chunks[s.chunkStart]
                        s.chunks[s.chunkStart] = Data()
                        s.chunkStart += 1
                        s.buffered -= chunk.count
                        if s.chunkStart == s.chunks.count { s.chunks.removeAll(keepingCapacity: true); s.chunkStart = 0 }
                        return .success(chunk)
                    }
                    if s.completed { return s.endError.map { .failure($0) } ?? .success(nil) }
                    s.bodyWaiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            self.abort(.cancelled)
        }
    }

    /// Fails everything now and closes the data task (`close`: cancelled after a grace, unless it
    /// completes first). The reason is recorded under the lock, and wins over the error the task then
    /// reports (`URLError.cancelled`, or whatever the dying connection produced).
    func abort(_ error: ProviderError) {
        let (task, headWaiter, bodyWaiter, timers, reason, inBody) = state.withLock { s in
            if s.abort == nil { s.abort = error }
            let taken = (s.task, s.headWaiter, s.bodyWaiter, [s.idleTimer, s.deadlineTimer], s.abort ?? error, s.head != nil)
            s.headWaiter = nil; s.bodyWaiter = nil; s.idleTimer = nil; s.deadlineTimer = nil
            return taken
        }
        timers.forEach { $0?.cancel() }
        headWaiter?.resume(throwing: reason)
        bodyWaiter?.resume(throwing: reason)
        guard let task else { return }
        // Before the head the transfer cannot be completing: cancel at once, so an abandoned request is
        // not sent late (and never to a port another server has taken since). In the body, close.
        if inBody { close() } else if !state.withLock({ $0.taskFinished }) { task.cancel() }
    }

    /// Cancels the data task `closeGrace` from now, on the timer queue (never on URLSession's delegate
    /// queue, never while it may be completing), unless it has completed by then. Idempotent.
    private func close() {
        // Arming only enqueues a Dispatch work item (it never calls back at once): safe under the lock.
        state.withLock { s in
            guard !s.taskFinished, s.closeTimer == nil else { return }
            s.closeTimer = TimeoutScheduler.realTime.after(Self.closeGrace) { self.closeNow() }
        }
    }

    private func closeNow() {
        let task = state.withLock { s -> URLSessionDataTask? in
            s.closeTimer = nil
            return s.taskFinished ? nil : s.task
        }
        task?.cancel()
    }

    /// Arms the idle timer for the activity count `seen` (called with the lock held).
    private func armIdleTimer(_ s: inout State) {
        let seen = s.activity
        s.idleTimer = timers.after(idleTimeout) { self.idleTimerFired(seen) }
    }

    private func idleTimerFired(_ seen: Int) {
        let idle = state.withLock { s -> Bool in
            guard s.abort == nil, !s.completed else { return false }
            if s.activity == seen { return true }
            armIdleTimer(&s)  // bytes came meanwhile: wait a full period from now
            return false
        }
        if idle { endBody(.timeout) }
    }

    /// Ends the body locally with `error`, delivered after the chunks already buffered (like a network
    /// error), and cancels the task. Recorded as the ending before the cancel, so the error the
    /// cancelled task then reports is ignored.
    private func endBody(_ error: ProviderError) {
        let (task, waiter, timers) = state.withLock { s -> (URLSessionDataTask?, CheckedContinuation<Data?, any Error>?, [TimeoutHandle?]) in
            guard s.abort == nil, !s.completed else { return (nil, nil, []) }
            s.completed = true
            s.endError = error
            let taken = (s.task, s.bodyWaiter, [s.idleTimer, s.deadlineTimer])
            s.bodyWaiter = nil; s.idleTimer = nil; s.deadlineTimer = nil
            return taken
        }
        timers.forEach { $0?.cancel() }
        waiter?.resume(throwing: error)  // a waiting consumer has read every buffered chunk
        if task != nil { close() }
    }

    // MARK: URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String { headers[name.lowercased()] = "\(value)" }
        }
        let head = Head(status: http?.statusCode ?? 0, headers: headers)
        // An interim response (100 Continue, 103 Early Hints) is reported like a head; the real one follows.
        if (100..<200).contains(head.status) {
            completionHandler(.allow)
            return
        }
        let (waiter, deadline) = state.withLock { s in
            s.head = head
            if s.abort == nil, !s.completed, s.idleTimer == nil { armIdleTimer(&s) }
            let taken = (s.headWaiter, s.deadlineCoversBody ? nil : s.deadlineTimer)
            s.headWaiter = nil
            if !s.deadlineCoversBody { s.deadlineTimer = nil }
            return taken
        }
        deadline?.cancel()
        waiter?.resume(returning: head)
        completionHandler(.allow)
    }

    /// Redirects are not followed: they would carry the key's header to another location. The 3xx
    /// response itself is returned and mapped to an error naming the fix.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (waiter, overflow) = state.withLock { s -> (CheckedContinuation<Data?, any Error>?, ProviderError?) in
            if s.abort != nil || s.completed { return (nil, nil) }
            s.activity += 1
            // Checked before the chunk is kept or handed on: past the limit nothing more is read.
            if data.count > maxBody - s.received { return (nil, .responseTooLarge(what: "the response body", limit: maxBody)) }
            s.received += data.count
            if let waiter = s.bodyWaiter {
                s.bodyWaiter = nil
                return (waiter, nil)
            }
            s.chunks.append(data)
            s.buffered += data.count
            let behind = s.buffered > maxBuffered
            return (nil, behind ? .transport("the consumer fell more than \(maxBuffered) bytes behind the response") : nil)
        }
        waiter?.resume(returning: data)
        if let overflow { abort(overflow) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (headWaiter, bodyWaiter, timers, endError) = state.withLock { s
            -> (CheckedContinuation<Head, any Error>?, CheckedContinuation<Data?, any Error>?, [TimeoutHandle?], ProviderError?) in
            s.taskFinished = true
            let close = s.closeTimer
            s.closeTimer = nil; s.task = nil
            // Already ended here (idle timeout): this is the task reporting; keep our reason.
            if s.completed { return (nil, nil, [close], s.endError) }
            s.completed = true
            // Our own abort (timeout, cancellation) explains the ending better than the task's error.
            let endError = s.abort ?? error.map(Self.providerError(for:))
            s.endError = endError
            s.task = nil
            let taken = (s.headWaiter, s.bodyWaiter, [s.idleTimer, s.deadlineTimer, close], endError)
            s.headWaiter = nil; s.bodyWaiter = nil; s.idleTimer = nil; s.deadlineTimer = nil
            return taken
        }
        timers.forEach { $0?.cancel() }
        if let headWaiter {
            headWaiter.resume(throwing: endError ?? .transport("the connection closed before a response"))
        }
        if let bodyWaiter {
            if let endError { bodyWaiter.resume(throwing: endError) } else { bodyWaiter.resume(returning: nil) }
        }
    }

    /// URLSession's errors as provider errors, without URLs or other request details.
    static func providerError(for error: any Error) -> ProviderError {
        let code = (error as NSError).code
        switch code {
        case NSURLErrorTimedOut: return .timeout
        case NSURLErrorCancelled: return .cancelled
        case NSURLErrorCannotConnectToHost: return .transport("cannot connect to the host (connection refused)")
        case NSURLErrorNetworkConnectionLost: return .transport("the network connection was lost")
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return .transport("cannot resolve the host name")
        case NSURLErrorNotConnectedToInternet: return .transport("not connected to the internet")
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted,
             NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateNotYetValid:
            return .transport("TLS handshake failed (URLError \(code))")
        default: return .transport("URL loading failed (URLError \(code))")
        }
    }
}
