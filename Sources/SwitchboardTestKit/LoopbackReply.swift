import Foundation

/// What a `LoopbackHTTPServer` does with one connection: a status, headers and a list of steps
/// (bytes, pauses, a clean drop, a reset, holding the socket open).
public struct LoopbackReply: Sendable {
    public enum Step: Sendable {
        case send(Data)
        /// Wait this many milliseconds before the next step.
        case pause(milliseconds: Int)
        /// Close the socket at once, mid-body (an orderly FIN).
        case drop
        /// Close the socket with a TCP reset (SO_LINGER 0): the client sees "connection reset".
        case reset
        /// Send nothing more; keep the socket open until the client closes it (recorded) or the time is up.
        case holdOpen(seconds: Double)
    }
    public var status: Int
    public var headers: [String: String]
    public var steps: [Step]
    /// Chunked transfer encoding (streams); otherwise Content-Length from the sent bytes.
    public var chunked: Bool
    /// Send nothing at all, not even the status line, holding the socket open this long.
    public var stallBeforeHead: Double?
    /// Reset the connection before anything is sent (after the request was read).
    public var resetBeforeHead: Bool
    /// Interim (1xx) responses sent before the real head, e.g. `[100, 103]` (103 carries a `Link`).
    public var interimStatuses: [Int] = []

    public init(status: Int, headers: [String: String] = [:], steps: [Step], chunked: Bool,
                stallBeforeHead: Double? = nil, resetBeforeHead: Bool = false) {
        self.status = status; self.headers = headers; self.steps = steps; self.chunked = chunked
        self.stallBeforeHead = stallBeforeHead; self.resetBeforeHead = resetBeforeHead
    }

    public static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> LoopbackReply {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return LoopbackReply(status: status, headers: headers, steps: [.send(Data(body.utf8))], chunked: false)
    }

    /// An event stream, one chunk per event, `pauseMilliseconds` apart, then `tail`.
    public static func sse(_ events: [String], pauseMilliseconds: Int = 0, then tail: [Step] = []) -> LoopbackReply {
        var steps: [Step] = []
        for event in events {
            if pauseMilliseconds > 0, !steps.isEmpty { steps.append(.pause(milliseconds: pauseMilliseconds)) }
            steps.append(.send(Data(event.utf8)))
        }
        return LoopbackReply(status: 200, headers: ["Content-Type": "text/event-stream"], steps: steps + tail, chunked: true)
    }

    /// Nothing, not even a status line: the socket stays open this long or until the client gives up.
    public static func stall(seconds: Double) -> LoopbackReply {
        LoopbackReply(status: 0, steps: [], chunked: false, stallBeforeHead: seconds)
    }

    /// The same reply preceded by interim responses with these 1xx statuses.
    public func afterInterim(_ statuses: [Int]) -> LoopbackReply {
        var reply = self
        reply.interimStatuses = statuses
        return reply
    }

    /// The connection is reset as soon as the request has been read.
    public static var reset: LoopbackReply { LoopbackReply(status: 0, steps: [], chunked: false, resetBeforeHead: true) }
}

/// A request as the server received it.
public struct LoopbackRequest: Sendable {
    public var method: String
    public var path: String
    /// Names lowercased.
    public var headers: [String: String]
    public var body: Data
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    public init(method: String, path: String, headers: [String: String], body: Data) {
        self.method = method; self.path = path; self.headers = headers; self.body = body
    }
}
