import Foundation
import Testing
@testable import Switchboard
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("Remote embeddings")
struct RemoteEmbedderTests {
    static let key = APIKey("sk-embed-test-0123456789abcdef")!

    @Test("OpenAI-compatible /v1/embeddings: the request, items put back in input order, vectors normalized")
    func openAI() async throws {
        let reply = #"{"object":"list","data":[{"index":1,"embedding":[0,3,4]},{"index":0,"embedding":[1,0,0]}],"model":"m","usage":{"prompt_tokens":4}}"#
        let server = try LoopbackHTTPServer([.json(200, reply)])
        defer { server.stop() }
        let embedder = RemoteEmbedder.openAI(model: "m", dimension: 3, baseURL: server.baseURL.appendingPathComponent("v1"),
                                             credentials: .key(Self.key))
        let vectors = try await embedder.embed(["first", "second"])
        #expect(vectors == [[1, 0, 0], [0, 0.6, 0.8]])
        let sent = try #require(server.requests.first)
        #expect(sent.path == "/v1/embeddings")
        #expect(sent.headers["authorization"] == "Bearer sk-embed-test-0123456789abcdef")
        #expect(sent.json?["input"] == ["first", "second"])
        #expect(!embedder.isOnDevice)
    }

    @Test("Gemini batchEmbedContents: one request per text, values in order")
    func gemini() async throws {
        let server = try LoopbackHTTPServer([.json(200, #"{"embeddings":[{"values":[2,0]},{"values":[0,-5]}]}"#)])
        defer { server.stop() }
        let embedder = RemoteEmbedder.gemini(model: "text-embedding-004", dimension: 2, baseURL: server.baseURL.appendingPathComponent("v1beta"),
                                             credentials: .key(Self.key))
        #expect(try await embedder.embed(["a", "b"]) == [[1, 0], [0, -1]])
        let sent = try #require(server.requests.first)
        #expect(sent.path == "/v1beta/models/text-embedding-004:batchEmbedContents")
        #expect(sent.headers["x-goog-api-key"] == "sk-embed-test-0123456789abcdef")
    }

    @Test("Malformed replies are typed errors: wrong count, wrong length, bad index, non-finite, huge numbers",
          arguments: [
            #"{"data":[{"index":0,"embedding":[1,0,0]}]}"#,
            #"{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[1,0,0]}]}"#,
            #"{"data":[{"index":5,"embedding":[1,0,0]},{"index":1,"embedding":[1,0,0]}]}"#,
            #"{"data":[{"index":0,"embedding":[1,0,0]},{"index":0,"embedding":[1,0,0]}]}"#,
            #"{"data":[{"index":1e300,"embedding":[1,0,0]},{"index":1,"embedding":[1,0,0]}]}"#,
            #"{"data":[{"index":0,"embedding":[1e39,0,0]},{"index":1,"embedding":[1,0,0]}]}"#,
            #"{"data":[{"index":0,"embedding":[0,0,0]},{"index":1,"embedding":[1,0,0]}]}"#,
            #"[1,2,3]"#,
          ])
    func malformed(reply: String) async throws {
        #expect(throws: ProviderError.self) {
            _ = try RemoteEmbedder.decode(Data(reply.utf8), api: .openAI, count: 2, dimension: 3)
        }
    }

    @Test("An error reply that echoes the key is scrubbed")
    func scrubbedError() async throws {
        let server = try LoopbackHTTPServer([.json(401, #"{"error":"bad key sk-embed-test-0123456789abcdef"}"#)])
        defer { server.stop() }
        let embedder = RemoteEmbedder.openAI(model: "m", dimension: 3, baseURL: server.baseURL, credentials: .key(Self.key))
        do {
            _ = try await embedder.embed(["x"])
            Issue.record("expected an error")
        } catch {
            #expect(!"\(error)".contains("0123456789abcdef"))
        }
    }
}
