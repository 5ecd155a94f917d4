import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("API keys never leak")
struct KeyRedactionTests {
    static let secret = "sk-proj-Zq81LmN0pQrStUvWxYz0123456789abcdefGHIJ"

    @Test func apiKeyPrintsNoSecretCharacters() throws {
        let key = try #require(APIKey(Self.secret))
        struct Holder { var key: APIKey; var name = "x" }
        var dumped = ""
        dump(Holder(key: key), to: &dumped)
        for text in [key.description, String(reflecting: key), "\(key)", "\(Holder(key: key))", String(reflecting: Holder(key: key)), dumped] {
            #expect(!text.contains(Self.secret))
            #expect(!text.contains("Zq81"), "\(text)")
        }
        #expect(key.description == "APIKey(redacted, \(Self.secret.count) chars)")
        #expect(APIKey("   ") == nil)
    }

    @Test func scrubRemovesWholeAndPartlyMaskedKeys() throws {
        let key = try #require(APIKey(Self.secret))
        let masked = "sk-proj-Zq81********************GHIJ"
        let text = key.scrub("Incorrect API key provided: \(Self.secret). Also \(masked), fine.")
        #expect(!text.contains(Self.secret) && !text.contains("Zq81"))
        #expect(text.contains("Incorrect API key provided: (redacted)"))
    }

    /// A failing authenticated call whose 401 body echoes the key: nothing observable carries it.
    @Test func failingAuthenticatedCallLeaksTheKeyNowhere() async throws {
        let echo = #"{"error":{"message":"Incorrect API key provided: \#(Self.secret). You can find your API key at https://example.invalid.","type":"invalid_request_error","code":"invalid_api_key"}}"#
        let server = try LoopbackHTTPServer([.json(401, echo), .sse(OpenAICompatibleProviderTests.happyStream)])
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sb-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let audit = KeyAuditLog()
        let store = FileKeyStore(fileURL: directory.appendingPathComponent("keys.json"), audit: audit)
        let reference = KeyReference("openai-compatible")
        try await store.set(try #require(APIKey(Self.secret)), for: reference)
        let log = LogSink()
        let ledger = UsageLedger()
        var options = settings(ledger: ledger, log: log)
        options.audit = audit
        let provider = RemoteProvider.openAI(model: "gemma", baseURL: server.baseURL.appendingPathComponent("v1"),
                                             credentials: .store(store, reference), settings: options)

        let error = try #require(await failure(of: provider.generate(providerRequest())))
        guard case .authentication = error else { Issue.record("expected authentication, got \(error)"); return }
        #expect(error.classification == .fallbackOnly)
        _ = try await collect(provider.generate(providerRequest()))
        // The server really got the key (so the checks below are not vacuous).
        #expect(server.requests.first?.headers["authorization"] == "Bearer \(Self.secret)")

        let records = await ledger.records()
        let encoder = JSONEncoder()
        var observable = [error.description, String(reflecting: error), "\(error)",
                          String(describing: provider), String(reflecting: provider),
                          String(decoding: try encoder.encode(records), as: UTF8.self), "\(records)",
                          "\(await audit.events())", "\(await provider.usage())"]
        observable += log.all
        var dumped = ""
        dump(provider, to: &dumped)
        observable.append(dumped)
        let request = try OpenAIWireFormat(baseURL: server.baseURL, model: "gemma", includeStreamUsage: true, strictJSONSchema: true,
                                           sendExtendedSampling: false, responseFormatStyle: .jsonSchema, extraHeaders: [:])
            .httpRequest(for: providerRequest(), key: APIKey(Self.secret), streaming: true)
        observable += [request.description, String(reflecting: request), "\(request)"]
        for text in observable {
            #expect(!text.contains(Self.secret), "leaked in: \(text.prefix(200))")
        }
        #expect(records.count == 2 && records[0].error?.contains("(redacted)") == true)
        #expect(log.all.count >= 2)
        #expect(await audit.events().map(\.action) == [.stored, .used, .used])
    }
}
