import Foundation
import SwitchboardRemote

/// What the scripted server does with one connection.
struct ScriptedReply: Sendable {
    enum Step: Sendable {
        case send(Data)
        /// Wait this many milliseconds before the next step.
        case pause(milliseconds: Int)
        /// Close the socket at once, mid-body.
        case drop
        /// Send nothing more; keep the socket open until the client closes it (recorded) or the time is up.
        case holdOpen(seconds: Double)
    }
    var status: Int
    var headers: [String: String]
    var steps: [Step]
    /// Chunked transfer encoding (streams); otherwise Content-Length from the sent bytes.
    var chunked: Bool
    /// Send nothing at all, not even the status line, holding the socket open this long.
    var stallBeforeHead: Double?

    init(status: Int, headers: [String: String] = [:], steps: [Step], chunked: Bool, stallBeforeHead: Double? = nil) {
        self.status = status; self.headers = headers; self.steps = steps; self.chunked = chunked
        self.stallBeforeHead = stallBeforeHead
    }

    static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> ScriptedReply {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return ScriptedReply(status: status, headers: headers, steps: [.send(Data(body.utf8))], chunked: false)
    }

    /// An event stream, one chunk per event, `pauseMilliseconds` apart.
    static func sse(_ events: [String], pauseMilliseconds: Int = 0, then tail: [Step] = []) -> ScriptedReply {
        var steps: [Step] = []
        for event in events {
            if pauseMilliseconds > 0, !steps.isEmpty { steps.append(.pause(milliseconds: pauseMilliseconds)) }
            steps.append(.send(Data(event.utf8)))
        }
        return ScriptedReply(status: 200, headers: ["Content-Type": "text/event-stream"], steps: steps + tail, chunked: true)
    }
}

/// A request as the server received it.
struct RecordedRequest: Sendable {
    var method: String
    var path: String
    /// Names lowercased.
    var headers: [String: String]
    var body: Data
    var json: JSONValue? { try? JSONValue.decode(body) }
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
