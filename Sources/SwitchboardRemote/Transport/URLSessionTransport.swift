import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwitchboardCore

/// The production transport: Foundation's URLSession, one ephemeral session per request (no cookies,
/// no cache, no shared connection state between providers). Streaming works on Linux too, where
/// `URLSession.bytes(for:)` does not exist, through a delegate bridged to an async stream.
public struct URLSessionTransport: HTTPTransport {
    /// A consumer further behind than this fails the stream instead of growing memory.
    public var maxBufferedBytes: Int
    /// Largest (decoded) body `send` accepts; streams are limited by `HTTPRequest.maxResponseBytes`.
    public var maxResponseBytes: Int
    private let timers: TimeoutScheduler

    public init(maxBufferedBytes: Int = 4 << 20, maxResponseBytes: Int = 16 << 20,
                clock: some Clock<Duration> = ContinuousClock()) {
        self.maxBufferedBytes = maxBufferedBytes; self.maxResponseBytes = maxResponseBytes
        timers = TimeoutScheduler.forClock(clock)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (head, lease) = try await start(request, deadlineCoversBody: true)
        var body = Data()
        while let chunk = try await lease.next() {
            body.append(chunk)  // the bridge refuses bytes past the limit before they are buffered
        }
        return HTTPResponse(status: head.status, headers: head.headers, body: body)
    }

    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let (head, lease) = try await start(request, deadlineCoversBody: false)
        let body = AsyncThrowingStream<Data, any Error> { try await lease.next() }
        return HTTPStreamingResponse(status: head.status, headers: head.headers, body: body)
    }

    private func start(_ request: HTTPRequest, deadlineCoversBody: Bool) async throws -> (DataTaskBridge.Head, TaskLease) {
        try Task.checkCancellation()
        // `send` holds the whole body: the transport's own limit applies too.
        let maxBody = deadlineCoversBody ? min(request.maxResponseBytes, maxResponseBytes) : request.maxResponseBytes
        // `send` keeps every byte anyway: its buffer may hold the whole (capped) body, so a consumer slowed by a
        // busy machine is not mistaken for one that fell behind.
        let bridge = DataTaskBridge(timers: timers, maxBuffered: deadlineCoversBody ? max(maxBufferedBytes, maxBody) : maxBufferedBytes,
                                    idleTimeout: request.idleTimeout, maxBody: maxBody)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        // Our own timers decide; URLSession's are only a backstop far beyond them.
        let backstop = max(request.timeout, request.idleTimeout).seconds * 4 + 60
        configuration.timeoutIntervalForRequest = backstop
        configuration.timeoutIntervalForResource = 7 * 86_400
        let session = URLSession(configuration: configuration, delegate: bridge, delegateQueue: nil)
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = backstop
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let task = session.dataTask(with: urlRequest)
        let lease = TaskLease(bridge)
        bridge.start(task, deadline: request.timeout, coversBody: deadlineCoversBody)
        // The session lets go of its delegate once the task ends.
        session.finishTasksAndInvalidate()
        let head = try await bridge.awaitHead()
        return (head, lease)
    }
}

/// Owns a running data task on behalf of the body's consumer: dropping it cancels the task.
final class TaskLease: Sendable {
    private let bridge: DataTaskBridge
    init(_ bridge: DataTaskBridge) { self.bridge = bridge }
    func next() async throws -> Data? { try await bridge.nextChunk() }
    func close() { bridge.abort(.cancelled) }
    deinit { bridge.abort(.cancelled) }
}
