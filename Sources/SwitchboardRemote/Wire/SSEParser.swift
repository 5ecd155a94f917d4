import SwitchboardCore

/// One dispatched server-sent event.
package struct SSEEvent: Sendable, Hashable {
    /// The `event:` field, `message` when absent.
    package var type: String
    /// The `data:` lines joined with "\n".
    package var data: String
    /// The last event ID seen in the stream when this event was dispatched.
    package var lastEventID: String
    package init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type; self.data = data; self.lastEventID = lastEventID
    }
}

/// An incremental `text/event-stream` parser following the WHATWG rules: feed bytes as they arrive, in
/// pieces split anywhere (even inside a CRLF or a UTF-8 sequence), get the completed events back.
/// One parser serves every provider. Memory is bounded: a line, or an event's joined data, longer than
/// `maxLineBytes` stops the parse with `ProviderError.responseTooLarge` (a server, or a decompression
/// bomb, sending one endless line cannot grow the buffer without end).
package struct SSEParser: Sendable {
    package let maxLineBytes: Int
    private var line: [UInt8] = []
    private var dataBuffer = ""
    private var dataBytes = 0
    private var hasData = false
    private var eventType = ""
    private var atStart = true
    private var bomPrefix: [UInt8] = []
    private var previousWasCR = false
    private var pendingFields = false
    package private(set) var lastEventID = ""
    /// The last valid `retry:` value, in milliseconds.
    package private(set) var reconnectionTime: Int?

    package init(maxLineBytes: Int = 1 << 20) { self.maxLineBytes = max(1, maxLineBytes) }

    /// Parses `bytes` and returns the events they complete.
    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws(ProviderError) -> [SSEEvent]
        where Bytes.Element == UInt8 {
        var events: [SSEEvent] = []
        for byte in bytes {
            if atStart {
                // A UTF-8 byte order mark is dropped once, at the very start of the stream.
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if byte == bom[bomPrefix.count] {
                    bomPrefix.append(byte)
                    if bomPrefix.count == bom.count { atStart = false; bomPrefix = [] }
                    continue
                }
                atStart = false
                let held = bomPrefix
                bomPrefix = []
                for b in held { try consume(b, into: &events) }
            }
            try consume(byte, into: &events)
        }
        return events
    }

    /// The stream ended. Per the spec an event not terminated by a blank line is discarded; returns
    /// true when something was discarded that way (a truncated stream).
    package mutating func finish() -> Bool {
        let discarded = !line.isEmpty || pendingFields || !bomPrefix.isEmpty
        line = []; dataBuffer = ""; dataBytes = 0; hasData = false; eventType = ""; pendingFields = false
        bomPrefix = []; previousWasCR = false
        return discarded
    }

    private mutating func consume(_ byte: UInt8, into events: inout [SSEEvent]) throws(ProviderError) {
        switch byte {
        case 0x0A where previousWasCR:
            previousWasCR = false // the LF of a CRLF
        case 0x0A, 0x0D:
            previousWasCR = byte == 0x0D
            try endLine(into: &events)
        default:
            previousWasCR = false
            guard line.count < maxLineBytes else { throw .responseTooLarge(what: "an event-stream line", limit: maxLineBytes) }
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [SSEEvent]) throws(ProviderError) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            dispatch(into: &events)
            return
        }
        if line[0] == 0x3A { return } // comment
        let field: String
        let value: String
        if let colon = line.firstIndex(of: 0x3A) {
            field = String(decoding: line[..<colon], as: UTF8.self)
            var start = colon + 1
            if start < line.count, line[start] == 0x20 { start += 1 }
            value = String(decoding: line[start...], as: UTF8.self)
        } else {
            field = String(decoding: line, as: UTF8.self)
            value = ""
        }
        switch field {
        case "event":
            eventType = value; pendingFields = true
        case "data":
            dataBytes += value.utf8.count + (hasData ? 1 : 0)
            guard dataBytes <= maxLineBytes else { throw .responseTooLarge(what: "an event-stream event", limit: maxLineBytes) }
            if hasData { dataBuffer += "\n" }
            dataBuffer += value
            hasData = true; pendingFields = true
        case "id":
            if !value.unicodeScalars.contains("\u{0}") { lastEventID = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { reconnectionTime = Int(value) }
        default:
            break // unknown fields are ignored
        }
    }

    private mutating func dispatch(into events: inout [SSEEvent]) {
        defer { dataBuffer = ""; dataBytes = 0; hasData = false; eventType = ""; pendingFields = false }
        guard hasData else { return }
        events.append(SSEEvent(type: eventType.isEmpty ? "message" : eventType, data: dataBuffer,
                               lastEventID: lastEventID))
    }
}
