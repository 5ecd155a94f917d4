import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (ephemeral port) that answers connections in order from a
/// script. One background thread, one connection at a time; every wait is bounded, and `stop()` ends
/// the thread. Bound to loopback only.
final class ScriptedHTTPServer: Sendable {
    struct Snapshot: Sendable {
        var requests: [RecordedRequest] = []
        var clientClosures = 0
        var connections = 0
    }
    private struct State {
        var replies: [ScriptedReply]
        var snapshot = Snapshot()
        var stopped = false
    }

    let port: UInt16
    private let listenFD: Int32
    private let state: Mutex<State>
    private let finished = DispatchSemaphore(value: 0)

    enum SetupError: Error { case socket(String) }

    init(_ replies: [ScriptedReply]) throws {
        state = Mutex(State(replies: replies))
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SetupError.socket("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw SetupError.socket("bind/listen failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listenFD = fd
        let thread = Thread { [self] in self.acceptLoop() }
        thread.start()
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var snapshot: Snapshot { state.withLock { $0.snapshot } }
    var requests: [RecordedRequest] { snapshot.requests }

    /// Stops the thread (bounded wait) and closes the listening socket.
    func stop() {
        let alreadyStopped = state.withLock { s in
            defer { s.stopped = true }
            return s.stopped
        }
        guard !alreadyStopped else { return }
        _ = finished.wait(timeout: .now() + 3)
        close(listenFD)
    }

    /// Polls until `condition` holds or `seconds` pass (tiny real sleeps, bounded).
    func waitUntil(seconds: Double = 5, _ condition: @Sendable (Snapshot) -> Bool) async -> Bool {
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
            var pfd = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            let connection = accept(listenFD, nil, nil)
            guard connection >= 0 else { continue }
            state.withLock { $0.snapshot.connections += 1 }
            serve(connection)
            close(connection)
        }
    }

    private func serve(_ fd: Int32) {
        guard let request = readRequest(fd) else { return }
        let reply = state.withLock { s -> ScriptedReply in
            s.snapshot.requests.append(request)
            return s.replies.isEmpty ? .json(500, #"{"error":"no scripted reply left"}"#) : s.replies.removeFirst()
        }
        if let seconds = reply.stallBeforeHead {
            if waitForClientClose(fd, seconds: seconds) { recordClosure() }
            return
        }
        var head = "HTTP/1.1 \(reply.status) \(Self.reason(reply.status))\r\nConnection: close\r\n"
        for (name, value) in reply.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if reply.chunked {
            head += "Transfer-Encoding: chunked\r\n"
        } else {
            let length = reply.steps.reduce(0) { sum, step in if case .send(let d) = step { sum + d.count } else { sum } }
            head += "Content-Length: \(length)\r\n"
        }
        head += "\r\n"
        guard write(fd, Data(head.utf8)) else { return }
        for step in reply.steps {
            switch step {
            case .send(let data):
                let framed = reply.chunked ? Data(String(data.count, radix: 16).utf8) + Data("\r\n".utf8) + data + Data("\r\n".utf8) : data
                guard write(fd, framed) else { recordClosure(); return }
            case .pause(let milliseconds):
                usleep(UInt32(milliseconds) * 1000)
            case .drop:
                return
            case .holdOpen(let seconds):
                if waitForClientClose(fd, seconds: seconds) { recordClosure() }
                return
            }
        }
        if reply.chunked { _ = write(fd, Data("0\r\n\r\n".utf8)) }
    }

    private func recordClosure() { state.withLock { $0.snapshot.clientClosures += 1 } }

    private func waitForClientClose(_ fd: Int32, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var scratch = [UInt8](repeating: 0, count: 1024)
        while Date() < deadline, !isStopped {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            let n = recv(fd, &scratch, scratch.count, 0)
            if n <= 0 { return true }
        }
        return false
    }

    private func write(_ fd: Int32, _ data: Data) -> Bool {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            #if canImport(Glibc)
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            #endif
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Reads the request line, headers and a Content-Length body (at most 4 MB, 5 s).
    private func readRequest(_ fd: Int32) -> RecordedRequest? {
        var buffer = [UInt8]()
        var scratch = [UInt8](repeating: 0, count: 16_384)
        let deadline = Date().addingTimeInterval(5)
        var headerEnd: Int?
        var contentLength = 0
        while Date() < deadline, buffer.count < 4 << 20, !isStopped {
            if headerEnd == nil, let end = Self.find([13, 10, 13, 10], in: buffer) {
                headerEnd = end + 4
                contentLength = Self.contentLength(String(decoding: buffer[..<end], as: UTF8.self))
            }
            if let headerEnd, buffer.count >= headerEnd + contentLength { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            let n = recv(fd, &scratch, scratch.count, 0)
            if n <= 0 { return nil }
            buffer += scratch[..<n]
        }
        guard let headerEnd, buffer.count >= headerEnd + contentLength else { return nil }
        let lines = String(decoding: buffer[..<(headerEnd - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RecordedRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
                               body: Data(buffer[headerEnd..<(headerEnd + contentLength)]))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return 0
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
