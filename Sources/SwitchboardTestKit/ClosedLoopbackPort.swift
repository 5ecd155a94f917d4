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
        (fd, port) = try LoopbackSocket.bindLoopback(reuseAddress: false)
    }

    /// `http://127.0.0.1:<port>/v1`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)/v1") ?? URL(fileURLWithPath: "/")
    }

    deinit { close(fd) }
}
