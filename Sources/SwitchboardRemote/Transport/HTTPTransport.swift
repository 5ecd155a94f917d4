import Foundation
import SwitchboardCore

/// One HTTP exchange as the providers describe it. Header values may hold credentials, so every
/// textual form of a request redacts them.
public struct HTTPRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// Until the response head arrives (for `send`, until the whole body has arrived).
    public var timeout: Duration
    /// Longest wait for the next body bytes once the response has begun.
    public var idleTimeout: Duration
    /// Decoded body bytes the transport accepts before it stops reading with
    /// `ProviderError.responseTooLarge` (a compressed body is counted after decompression).
    public var maxResponseBytes: Int

    public init(method: String = "POST", url: URL, headers: [String: String] = [:], body: Data? = nil,
                timeout: Duration = .seconds(60), idleTimeout: Duration = .seconds(60), maxResponseBytes: Int = .max) {
        self.method = method; self.url = url; self.headers = headers; self.body = body
        self.timeout = timeout; self.idleTimeout = idleTimeout; self.maxResponseBytes = maxResponseBytes
    }

    /// Header names whose values are secrets and never printed.
    public static let sensitiveHeaderNames: Set<String> = ["authorization", "x-api-key", "x-goog-api-key", "api-key",
                                                           "proxy-authorization", "cookie"]

    public var description: String {
        let names = headers.keys.sorted().map { name in
            Self.sensitiveHeaderNames.contains(name.lowercased()) ? "\(name): (redacted)" : "\(name): \(headers[name] ?? "")"
        }
        return "\(method) \(url.absoluteString) [\(names.joined(separator: ", "))] body \(body?.count ?? 0) bytes"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["summary": description], displayStyle: .struct) }
}

/// A complete response.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Names lowercased.
    public var headers: [String: String]
    public var body: Data
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status; self.body = body
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A response whose body arrives as it is produced. Ending iteration early (or cancelling the task
/// that iterates) closes the connection.
public struct HTTPStreamingResponse: Sendable {
    public var status: Int
    /// Names lowercased.
    public var headers: [String: String]
    public var body: AsyncThrowingStream<Data, any Error>
    public init(status: Int, headers: [String: String] = [:], body: AsyncThrowingStream<Data, any Error>) {
        self.status = status; self.body = body
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// How providers reach the network; tests substitute their own. Errors thrown are `ProviderError`s:
/// `.timeout`, `.transport`, `.cancelled`.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
    func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse
}

extension HTTPStreamingResponse {
    /// Reads the whole body, refusing more than `limit` bytes.
    public func collectBody(limit: Int = 8 << 20) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            // Checked before appending: one oversized chunk never lands in the buffer.
            if chunk.count > limit - data.count { throw ProviderError.responseTooLarge(what: "the response body", limit: limit) }
            data.append(chunk)
        }
        return data
    }
}

