import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 127.0.0.1 port that is bound but never listens: every connection to it is refused, and no other
/// server can take the port while this object lives. Tests of "nothing answers here" use it instead
/// of a stopped server's port, which the kernel may hand to the next server started in parallel.
public final class ClosedLoopbackPort: Sendable {
    public let port: UInt16
    private let fd: Int32

    public init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw LoopbackSocket.SetupError.socket("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else { close(fd); throw LoopbackSocket.SetupError.socket("bind failed: errno \(errno)") }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// `http://127.0.0.1:<port>/v1`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)/v1") ?? URL(fileURLWithPath: "/")
    }

    deinit { close(fd) }
}
