import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote
import SwitchboardTestKit

@Suite("Key stores")
struct KeyStoreTests {
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sb-keystore-\(UUID().uuidString)/keys.json")
    }

    static func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test func fileStoreRoundTripWithPrivatePermissionsAndAudit() async throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let audit = KeyAuditLog()
        let store = FileKeyStore(fileURL: url, audit: audit)
        let reference = KeyReference("anthropic", name: "work")
        #expect(try await store.get(reference) == nil)
        try await store.set(try #require(APIKey("first-key-value")), for: reference)
        #expect(try Self.mode(of: url) == 0o600)
        #expect(try await store.get(reference) == APIKey("first-key-value"))
        try await store.rotate(reference, to: try #require(APIKey("second-key-value")))
        #expect(try await store.get(reference) == APIKey("second-key-value"))
        #expect(try Self.mode(of: url) == 0o600)
        // A fresh store reads what the first wrote.
        #expect(try await FileKeyStore(fileURL: url).get(reference) == APIKey("second-key-value"))
        try await store.delete(reference)
        #expect(try await store.get(reference) == nil)
        await #expect(throws: KeyStoreError.notFound(reference)) { try await store.delete(reference) }
        await #expect(throws: KeyStoreError.notFound(reference)) { try await store.rotate(reference, to: try #require(APIKey("x"))) }
        let events = await audit.events()
        #expect(events.map(\.action) == [.stored, .rotated, .deleted])
        #expect(!"\(events)".contains("key-value"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(leftovers == ["keys.json"])
    }

    @Test func fileStoreRefusesAGroupOrWorldReadableFile() async throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = FileKeyStore(fileURL: url)
        try await store.set(try #require(APIKey("some-key")), for: KeyReference("gemini"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        do {
            _ = try await store.get(KeyReference("gemini"))
            Issue.record("read a world-readable key file")
        } catch let error as KeyStoreError {
            #expect(error == .insecurePermissions(path: url.path, mode: 0o644))
            #expect(error.description.contains("chmod 600 \(url.path)"))
        }
    }

    @Test func fileStoreRejectsGarbage() async throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("[1,2".utf8), attributes: [.posixPermissions: 0o600])
        await #expect(throws: KeyStoreError.self) { _ = try await FileKeyStore(fileURL: url).get(KeyReference("gemini")) }
    }

    @Test func environmentStoreMapsProvidersToVariablesAndIsReadOnly() async throws {
        let environment = ["OPENAI_API_KEY": "env-openai", "ANTHROPIC_API_KEY": "  ", "MY_GEMINI": "env-gemini"]
        let store = EnvironmentKeyStore(namedVariables: [KeyReference("gemini", name: "alt"): "MY_GEMINI"], environment: environment)
        #expect(try await store.get(KeyReference("openai-compatible")) == APIKey("env-openai"))
        #expect(try await store.get(KeyReference("anthropic")) == nil)
        #expect(try await store.get(KeyReference("gemini")) == nil)
        #expect(try await store.get(KeyReference("gemini", name: "alt")) == APIKey("env-gemini"))
        #expect(try await store.get(KeyReference("unknown")) == nil)
        do {
            try await store.set(try #require(APIKey("x")), for: KeyReference("openai-compatible"))
            Issue.record("wrote to the environment")
        } catch let error as KeyStoreError {
            #expect(error.description.contains("OPENAI_API_KEY"))
        }
    }

    @Test func providersReadRotatedKeysOnTheNextRequest() async throws {
        let server = try LoopbackHTTPServer([.sse(GeminiProviderTests.happyStream), .sse(GeminiProviderTests.happyStream)])
        defer { server.stop() }
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = FileKeyStore(fileURL: url)
        let reference = KeyReference("gemini")
        let provider = RemoteProvider.gemini(model: "g", credentials: .store(store, reference), baseURL: server.baseURL,
                                             settings: settings())
        #expect(await provider.availability() == .unavailable(reason: "no API key is stored for gemini/default"))
        try await store.set(try #require(APIKey("old-gemini-key")), for: reference)
        #expect(await provider.availability() == .ready)
        _ = try await collect(provider.generate(providerRequest()))
        try await store.rotate(reference, to: try #require(APIKey("new-gemini-key")))
        _ = try await collect(provider.generate(providerRequest()))
        #expect(server.requests.map { $0.headers["x-goog-api-key"] } == ["old-gemini-key", "new-gemini-key"])
    }
}
