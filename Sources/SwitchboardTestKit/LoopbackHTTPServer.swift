import Foundation
import SwitchboardCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port, never another interface), for tests and
/// benchmarks. Each connection carries one request (`Connection: close`). Two ways to answer:
/// - a script (`init(_:)`): replies in order, one connection at a time on one background thread;
/// - a handler (`init(maxConnections:recordsRequests:handler:)`): a reply per request, up to
///   `maxConnections` connections served at once, each on its own thread.
/// Every wait is bounded; `stop()` ends every thread and closes the listening socket.
public final class LoopbackHTTPServer: Sendable {
    public typealias Handler = @Sendable (LoopbackRequest) -> LoopbackReply

    public struct Snapshot: Sendable {
        /// Requests received (empty unless the server records them).
        public var requests: [LoopbackRequest] = []
        /// Connections the client closed while the server held them open.
        public var clientClosures = 0
        public var connections = 0
    }
    private struct State {
        var replies: [LoopbackReply]
        var snapshot = Snapshot()
        var stopped = false
        var activeConnections = 0
    }

    public let port: UInt16
    private let listenFD: Int32
    private let state: Lock<State>
    private let handler: Handler?
    private let maxConnections: Int
    private let recordsRequests: Bool
    private let finished = DispatchSemaphore(value: 0)

    /// Answers connections in order from `replies`; past the end, a 500.
    public convenience init(_ replies: [LoopbackReply]) throws {
        try self.init(replies: replies, handler: nil, maxConnections: 1, recordsRequests: true)
    }

    /// Answers each request with `handler(request)`, serving up to `maxConnections` (1…256) at once.
    public convenience init(maxConnections: Int = 64, recordsRequests: Bool = true, handler: @escaping Handler) throws {
        try self.init(replies: [], handler: handler, maxConnections: min(max(1, maxConnections), 256), recordsRequests: recordsRequests)
    }

    private init(replies: [LoopbackReply], handler: Handler?, maxConnections: Int, recordsRequests: Bool) throws {
        state = Lock(State(replies: replies))
        self.handler = handler
        self.maxConnections = maxConnections
        self.recordsRequests = recordsRequests
        let (fd, port) = try LoopbackSocket.listenOnLoopback(backlog: Int32(min(maxConnections * 2, 128)) + 16)
        self.port = port
        listenFD = fd
        let thread = Thread { [self] in self.acceptLoop() }
        thread.start()
    }

    public var baseURL: URL {
        var components = URLComponents()
        components.scheme = "http"; components.host = "127.0.0.1"; components.port = Int(port)
        return components.url ?? URL(fileURLWithPath: "/")
    }
    public var snapshot: Snapshot { state.withLock { $0.snapshot } }
    public var requests: [LoopbackRequest] { snapshot.requests }

    /// Stops every thread (bounded waits) and closes the listening socket. Idempotent.
    public func stop() {
        let alreadyStopped = state.withLock { s in
            defer { s.stopped = true }
            return s.stopped
        }
        guard !alreadyStopped else { return }
        _ = finished.wait(timeout: .now() + 3)
        // Connection threads notice `stopped` within one 20 ms poll.
        for _ in 0..<150 where state.withLock({ $0.activeConnections }) > 0 { usleep(20_000) }
        close(listenFD)
    }

    /// Polls until `condition` holds or `seconds` pass (tiny real sleeps, bounded).
    public func waitUntil(seconds: Double = 5, _ condition: @Sendable (Snapshot) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(snapshot) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(snapshot)
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { finished.signal() }
        while !isStopped {
            // At the connection cap, leave new clients in the backlog until a slot frees.
            if state.withLock({ $0.activeConnections }) >= maxConnections { usleep(2_000); continue }
            guard LoopbackSocket.readable(listenFD) else { continue }
            let connection = accept(listenFD, nil, nil)
            guard connection >= 0 else { continue }
            state.withLock { $0.snapshot.connections += 1; $0.activeConnections += 1 }
            if maxConnections == 1 {
                serveAndClose(connection)
            } else {
                Thread { [self] in self.serveAndClose(connection) }.start()
            }
        }
    }

    private func serveAndClose(_ fd: Int32) {
        serve(fd)
        close(fd)
        state.withLock { $0.activeConnections -= 1 }
    }

    private func serve(_ fd: Int32) {
        guard let request = LoopbackSocket.readRequest(fd, stopped: { isStopped }) else { return }
        let scripted = state.withLock { s -> LoopbackReply? in
            if recordsRequests { s.snapshot.requests.append(request) }
            guard handler == nil else { return nil }
            return s.replies.isEmpty ? .json(500, #"{"error":"no scripted reply left"}"#) : s.replies.removeFirst()
        }
        guard let reply = scripted ?? handler?(request) else { return }
        if reply.resetBeforeHead { LoopbackSocket.armReset(fd); return }
        if let seconds = reply.stallBeforeHead {
            if LoopbackSocket.waitForClientClose(fd, seconds: seconds, stopped: { isStopped }) { recordClosure() }
            return
        }
        for status in reply.interimStatuses {
            let hints = status == 103 ? "Link: </style.css>; rel=preload; as=style\r\n" : ""
            guard LoopbackSocket.write(fd, Data("HTTP/1.1 \(status) \(LoopbackSocket.reason(status))\r\n\(hints)\r\n".utf8)) else { return }
        }
        var head = "HTTP/1.1 \(reply.status) \(LoopbackSocket.reason(reply.status))\r\nConnection: close\r\n"
        for (name, value) in reply.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if reply.chunked {
            head += "Transfer-Encoding: chunked\r\n"
        } else if !reply.headers.keys.contains(where: { $0.lowercased() == "content-length" }) {
            // A reply that declares its own length may send less (a truncated body).
            let length = reply.steps.reduce(0) { sum, step in if case .send(let d) = step { sum + d.count } else { sum } }
            head += "Content-Length: \(length)\r\n"
        }
        head += "\r\n"
        guard LoopbackSocket.write(fd, Data(head.utf8)) else { return }
        for step in reply.steps {
            switch step {
            case .send(let data):
                let framed = reply.chunked ? Data(String(data.count, radix: 16).utf8) + Data("\r\n".utf8) + data + Data("\r\n".utf8) : data
                guard LoopbackSocket.write(fd, framed) else { recordClosure(); return }
            case .pause(let milliseconds):
                LoopbackSocket.pause(milliseconds: milliseconds, stopped: { isStopped })
            case .drop:
                return
            case .reset:
                LoopbackSocket.armReset(fd)
                return
            case .holdOpen(let seconds):
                if LoopbackSocket.waitForClientClose(fd, seconds: seconds, stopped: { isStopped }) { recordClosure() }
                return
            }
        }
        if reply.chunked { _ = LoopbackSocket.write(fd, Data("0\r\n\r\n".utf8)) }
    }

    private func recordClosure() { state.withLock { $0.snapshot.clientClosures += 1 } }
}
