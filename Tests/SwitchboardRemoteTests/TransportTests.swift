import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("URLSession transport over loopback")
struct TransportTests {
    @Test func sendsAndReceivesAWholeResponse() async throws {
        let server = try LoopbackHTTPServer([.json(200, #"{"ok":true}"#, headers: ["X-Test": "yes"])])
        defer { server.stop() }
        let transport = URLSessionTransport()
        let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("echo"),
                                                            headers: ["Content-Type": "application/json"],
                                                            body: Data(#"{"a":1}"#.utf8)))
        #expect(response.status == 200)
        #expect(response.header("x-test") == "yes")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/echo")
        #expect(request.bodyText == #"{"a":1}"#)
    }

    @Test func streamsChunksAsTheyArrive() async throws {
        let server = try LoopbackHTTPServer([.sse(["data: one\n\n", "data: two\n\n"], pauseMilliseconds: 30)])
        defer { server.stop() }
        let response = try await URLSessionTransport().stream(HTTPRequest(url: server.baseURL))
        #expect(response.status == 200)
        var parser = SSEParser()
        var events: [String] = []
        for try await chunk in response.body { events += try parser.feed(chunk).map(\.data) }
        #expect(events == ["one", "two"])
    }

    @Test func droppedConnectionMidStreamIsATransportError() async throws {
        let server = try LoopbackHTTPServer([.sse(["data: one\n\n"], then: [.pause(milliseconds: 20), .drop])])
        defer { server.stop() }
        let response = try await URLSessionTransport().stream(HTTPRequest(url: server.baseURL))
        await #expect(throws: ProviderError.self) {
            for try await _ in response.body {}
        }
    }

    @Test func stalledStreamHitsTheIdleTimeout() async throws {
        // The server bounds (90 s) are only backstops: the client ends the wait after 300 ms. They are long
        // so a test whose task is starved for seconds by other tests on the cooperative pool still passes.
        let server = try LoopbackHTTPServer([.sse(["data: one\n\n"], then: [.holdOpen(seconds: 90)])])
        defer { server.stop() }
        let response = try await URLSessionTransport().stream(HTTPRequest(url: server.baseURL, idleTimeout: .milliseconds(300)))
        var received = 0
        do {
            for try await _ in response.body { received += 1 }
            Issue.record("the stalled stream ended without an error")
        } catch let error as ProviderError {
            #expect(error == .timeout)
        }
        #expect(received == 1)
        #expect(await server.waitUntil(seconds: 90) { $0.clientClosures == 1 })
    }

    @Test func stalledHeadHitsTheRequestTimeout() async throws {
        let server = try LoopbackHTTPServer([LoopbackReply(status: 200, steps: [], chunked: true, stallBeforeHead: 90)])
        defer { server.stop() }
        await #expect(throws: ProviderError.timeout) {
            _ = try await URLSessionTransport().send(HTTPRequest(url: server.baseURL, timeout: .milliseconds(300)))
        }
        #expect(await server.waitUntil(seconds: 90) { $0.clientClosures == 1 })
    }

    @Test func refusedConnectionIsATransportError() async throws {
        let server = try LoopbackHTTPServer([])
        let url = server.baseURL
        server.stop() // nothing listens on the port any more
        do {
            _ = try await URLSessionTransport().send(HTTPRequest(url: url, timeout: .seconds(5)))
            Issue.record("a refused connection succeeded")
        } catch let error as ProviderError {
            guard case .transport = error else { Issue.record("expected transport, got \(error)"); return }
        }
    }

    @Test func cancellingTheConsumerClosesTheConnection() async throws {
        let server = try LoopbackHTTPServer([.sse(["data: one\n\n"], then: [.holdOpen(seconds: 90)])])
        defer { server.stop() }
        let consumer = Task {
            let response = try await URLSessionTransport().stream(HTTPRequest(url: server.baseURL))
            for try await _ in response.body {}
        }
        #expect(await server.waitUntil(seconds: 90) { $0.requests.count == 1 })
        try await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        let result = await consumer.result
        #expect(throws: (any Error).self) { try result.get() }
        #expect(await server.waitUntil(seconds: 90) { $0.clientClosures == 1 })
    }
}
