import Foundation
import SwitchboardCore
import Synchronization

/// An OpenAI-compatible `/v1/chat/completions` server on 127.0.0.1 that answers healthily or with a
/// fault (`ChatFaultPlan`: which fault, how often, from a seed), streaming or not as the request
/// asks. It counts what it received, including every request whose body carries one of
/// `sensitiveMarkers`: the proof, counted at the server, that private text never left the device.
public final class FaultyChatServer: Sendable {
    public struct Counts: Sendable, Hashable {
        /// Chat requests received.
        public var requests = 0
        /// Requests whose body contained a sensitive marker.
        public var sensitive = 0
        /// Requests answered with the fault.
        public var faults = 0
        public init() {}
    }

    private let server: LoopbackHTTPServer
    private let responder: FaultyChatResponder

    public init(plan: ChatFaultPlan, replies: ChatFaultReplies = ChatFaultReplies(), sensitiveMarkers: [String] = [],
                maxConnections: Int = 64) throws {
        let responder = FaultyChatResponder(plan: plan, replies: replies, markers: sensitiveMarkers.filter { !$0.isEmpty })
        self.responder = responder
        server = try LoopbackHTTPServer(maxConnections: maxConnections, recordsRequests: false) { responder.respond(to: $0) }
    }

    /// The API base, `http://127.0.0.1:PORT/v1`, for `RemoteProvider.openAI(baseURL:)`.
    public var baseURL: URL { server.baseURL.appendingPathComponent("v1") }
    public var port: UInt16 { server.port }
    public var counts: Counts { responder.counts }
    /// Connections the client closed while the server held them open (timeouts, stalls).
    public var clientClosures: Int { server.snapshot.clientClosures }

    /// Stops the server and its connection threads; afterwards its port refuses connections.
    public func stop() { server.stop() }
}

/// Decides and counts; shared by the server's connection threads.
final class FaultyChatResponder: Sendable {
    private let plan: ChatFaultPlan
    private let replies: ChatFaultReplies
    private let markers: [String]
    private let state = Lock(FaultyChatServer.Counts())

    init(plan: ChatFaultPlan, replies: ChatFaultReplies, markers: [String]) {
        self.plan = plan; self.replies = replies; self.markers = markers
    }

    var counts: FaultyChatServer.Counts { state.withLock { $0 } }

    func respond(to request: LoopbackRequest) -> LoopbackReply {
        guard request.method == "POST", request.path.hasSuffix("/chat/completions") else {
            return .json(404, #"{"error":{"message":"not found","type":"invalid_request_error"}}"#)
        }
        let json = try? JSONSerialization.jsonObject(with: request.body)
        let sensitive = containsMarker(request.bodyText, json)
        let fault = state.withLock { counts -> ChatFault? in
            let fault = plan.fault(forRequest: counts.requests)
            counts.requests += 1
            if sensitive { counts.sensitive += 1 }
            if fault != nil { counts.faults += 1 }
            return fault
        }
        let streaming = ((json as? [String: Any])?["stream"] as? Bool) ?? false
        return replies.reply(fault, streaming: streaming)
    }

    /// A marker in the raw body, or in any string of the decoded JSON (escapes undone).
    private func containsMarker(_ raw: String, _ json: Any?) -> Bool {
        guard !markers.isEmpty else { return false }
        if markers.contains(where: raw.contains) { return true }
        var strings: [String] = []
        Self.collectStrings(json, into: &strings, depth: 0)
        return strings.contains { text in markers.contains(where: text.contains) }
    }

    private static func collectStrings(_ value: Any?, into strings: inout [String], depth: Int) {
        guard depth < 32 else { return }  // a request body is shallow; stop at absurd nesting
        switch value {
        case let text as String: strings.append(text)
        case let array as [Any]: for item in array { collectStrings(item, into: &strings, depth: depth + 1) }
        case let object as [String: Any]: for item in object.values { collectStrings(item, into: &strings, depth: depth + 1) }
        default: break
        }
    }
}
