import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// Forty 1 MB events sent as fast as loopback allows: every event is past the line cap, the consumer
/// falls behind, and the call ends while the server is still writing or has just finished. Ending a
/// URLSession task there raced swift-corelibs-foundation's own bookkeeping ("Trying to access a
/// behaviour for a task that in not in the registry", upstream issues 3292 and 3296) and crashed
/// the process in 3 of 20 runs (3 processes in 300 rounds of this test). The bridge now never cancels
/// from the delegate queue nor while the transfer may be completing (see `DataTaskBridge.close`); a
/// crash here kills the test process.
@Suite("Wide events never crash URLSession")
struct WideEventStreamTests {
    static let rounds = 25

    static func wideEvents(count: Int = 40, bytes: Int = 1 << 20) -> LoopbackReply {
        let filler = String(repeating: "w", count: bytes)
        let event = sseData(#"{"choices":[{"index":0,"delta":{"content":"\#(filler)"}}]}"#)
        return .sse(Array(repeating: event, count: count))
    }

    @Test func fortyOneMegabyteEventsEndWithATypedErrorEveryTime() async throws {
        let reply = Self.wideEvents()
        let server = try LoopbackHTTPServer(maxConnections: 4, recordsRequests: false) { _ in reply }
        defer { server.stop() }
        let provider = openAI(server, settings: HostileStreamTests.hostile(tokenTimeout: .seconds(20), maxResponseBytes: 64 << 20,
                                                                         maxLineBytes: 1 << 20))
        for _ in 0..<Self.rounds {
            let error = await failure(of: provider.generate(providerRequest()))
            // The line cap, or the consumer falling behind: both typed, both closing the connection.
            let typed = error == .responseTooLarge(what: "an event-stream line", limit: 1 << 20)
                || error.map { if case .transport = $0 { true } else { false } } == true
            #expect(typed, "\(String(describing: error))")
        }
    }
}
