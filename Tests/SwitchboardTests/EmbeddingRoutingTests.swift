import Synchronization
import Testing
@testable import Switchboard
import SwitchboardTestKit

/// An embedder that records what it was sent and can be told to fail: the stand-in for a remote API.
final class RecordingEmbedder: Embedder, Sendable {
    let modelID: String
    let dimension = 32
    let isOnDevice: Bool
    let fails: Bool
    private let received = Mutex<[String]>([])
    init(_ modelID: String, onDevice: Bool, fails: Bool = false) { self.modelID = modelID; isOnDevice = onDevice; self.fails = fails }
    var texts: [String] { received.withLock { $0 } }
    func embed(_ texts: [String]) async throws -> [[Float]] {
        received.withLock { $0 += texts }
        if fails { throw CancellationError() }
        return try await HashingEmbedder(dimension: dimension).embed(texts)
    }
}

@Suite("Embeddings through the coordinator")
struct EmbeddingRoutingTests {
    @Test("A sensitive text is embedded on device only: the remote embedder registered first receives nothing")
    func sensitiveStaysHome() async throws {
        let remote = RecordingEmbedder("remote-embed", onDevice: false)
        let local = RecordingEmbedder("local-embed", onDevice: true)
        let coordinator = Coordinator(deviceState: FixedDeviceState())
        coordinator.register(embedder: remote)
        coordinator.register(embedder: local)
        let response = try await coordinator.embed(["The weather is nice", "my SSN is 123-45-6789"])
        #expect(response.modelID == "local-embed")
        #expect(response.isOnDevice)
        #expect(response.privacy == .sensitive)
        #expect(response.vectors.count == 2)
        #expect(remote.texts.isEmpty)
    }

    @Test("Public texts go to the first registered embedder; a failing one falls back to the next")
    func publicAndFallback() async throws {
        let remote = RecordingEmbedder("remote-embed", onDevice: false, fails: true)
        let local = RecordingEmbedder("local-embed", onDevice: true)
        let coordinator = Coordinator(deviceState: FixedDeviceState())
        coordinator.register(embedder: remote)
        coordinator.register(embedder: local)
        let response = try await coordinator.embed(["What is the capital of France?"])
        #expect(remote.texts == ["What is the capital of France?"])
        #expect(response.modelID == "local-embed")
        #expect(response.failedEmbedders == ["remote-embed"])
        #expect(response.dimension == 32)
    }

    @Test("No eligible embedder and empty input are typed errors")
    func refusals() async {
        let coordinator = Coordinator(deviceState: FixedDeviceState())
        coordinator.register(embedder: RecordingEmbedder("remote-embed", onDevice: false))
        await #expect(throws: EmbeddingError.noEligibleEmbedder(privacy: .sensitive)) {
            try await coordinator.embed(["password: hunter2-Correct-Horse"])
        }
        await #expect(throws: EmbeddingError.emptyInput) { try await coordinator.embed([]) }
    }
}
