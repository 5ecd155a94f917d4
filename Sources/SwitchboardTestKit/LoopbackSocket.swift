import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX socket calls `LoopbackHTTPServer` needs, each bounded in time: every wait polls in
/// 20 ms slices and gives up at its deadline or when `stopped()` says the server is stopping.
enum LoopbackSocket {
    enum SetupError: Error, CustomStringConvertible {
        case socket(String)
        var description: String { switch self { case .socket(let message): message } }
    }

    /// A listening socket on 127.0.0.1 (never another interface) at an ephemeral port.
    static func listenOnLoopback(backlog: Int32) throws(SetupError) -> (fd: Int32, port: UInt16) {
        let (fd, port) = try bindLoopback(reuseAddress: true)
        guard listen(fd, backlog) == 0 else { close(fd); throw .socket("listen failed: errno \(errno)") }
        return (fd, port)
    }

    /// A TCP socket bound to 127.0.0.1 at an ephemeral port, not listening yet. Without
    /// `reuseAddress` no other socket can bind the port while this one is open.
    static func bindLoopback(reuseAddress: Bool) throws(SetupError) -> (fd: Int32, port: UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .socket("socket() failed: errno \(errno)") }
        if reuseAddress {
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else { close(fd); throw .socket("bind failed: errno \(errno)") }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Whether `fd` became readable within `milliseconds`.
    static func readable(_ fd: Int32, milliseconds: Int32 = 20) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, milliseconds) > 0
    }

    /// Writes all of `data`; false when the peer is gone.
    static func write(_ fd: Int32, _ data: Data) -> Bool {
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

    /// Makes the coming `close` send a TCP reset instead of an orderly FIN.
    static func armReset(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Waits until the client closes `fd` (true) or the time is up or the server stops (false).
    static func waitForClientClose(_ fd: Int32, seconds: Double, stopped: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var scratch = [UInt8](repeating: 0, count: 1024)
        while Date() < deadline, !stopped() {
            guard readable(fd) else { continue }
            if recv(fd, &scratch, scratch.count, 0) <= 0 { return true }
        }
        return false
    }

    /// Sleeps `milliseconds` in slices, returning early when the server stops.
    static func pause(milliseconds: Int, stopped: () -> Bool) {
        var left = max(0, milliseconds)
        while left > 0, !stopped() {
            let slice = min(left, 20)
            usleep(UInt32(slice) * 1000)
            left -= slice
        }
    }

    /// Reads the request line, headers and a Content-Length body (at most 4 MB, 5 s).
    static func readRequest(_ fd: Int32, stopped: () -> Bool) -> LoopbackRequest? {
        var buffer = [UInt8]()
        var scratch = [UInt8](repeating: 0, count: 16_384)
        let deadline = Date().addingTimeInterval(5)
        var headerEnd: Int?
        var contentLength = 0
        while Date() < deadline, buffer.count < 4 << 20, !stopped() {
            if headerEnd == nil, let end = find([13, 10, 13, 10], in: buffer) {
                headerEnd = end + 4
                contentLength = Self.contentLength(String(decoding: buffer[..<end], as: UTF8.self))
            }
            if let headerEnd, buffer.count >= headerEnd + contentLength { break }
            guard readable(fd) else { continue }
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
        return LoopbackRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
                               body: Data(buffer[headerEnd..<(headerEnd + contentLength)]))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }

    /// The Content-Length header, 0 when absent; a malformed or huge value reads as 0 or is capped by the 4 MB read limit.
    private static func contentLength(_ head: String) -> Int {
        for line in head.components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return min(max(0, Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0), 4 << 20)
            }
        }
        return 0
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 103: "Early Hints"
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
