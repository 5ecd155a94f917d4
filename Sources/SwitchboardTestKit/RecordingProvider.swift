import SwitchboardCore

/// Wraps any provider and records every request it is handed before forwarding it: for tests that
/// must prove what did (or did not) reach a provider, such as a remote one in privacy tests.
public actor RecordingProvider: Provider {
    public nonisolated let id: ProviderID
    public nonisolated let capabilities: ProviderCapabilities
    private let inner: any Provider
    public private(set) var receivedRequests: [ProviderRequest] = []

    public init(wrapping inner: any Provider) {
        self.inner = inner; id = inner.id; capabilities = inner.capabilities
    }

    /// A recording provider that answers with fixed tokens.
    public init(id: ProviderID, capabilities: ProviderCapabilities, tokens: [String] = ["ok"]) {
        self.init(wrapping: ScriptedProvider(id: id, capabilities: capabilities, output: .tokens(tokens), recordsRequests: false))
    }

    public var callCount: Int { receivedRequests.count }

    public func availability() async -> ProviderAvailability { await inner.availability() }

    public func generate(_ request: ProviderRequest) -> ProviderEventStream {
        receivedRequests.append(request)
        let inner = inner
        let (stream, continuation) = AsyncThrowingStream<ProviderEvent, any Error>.makeStream()
        let forward = Task {
            do {
                for try await event in await inner.generate(request) { continuation.yield(event) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in forward.cancel() }
        return ProviderEventStream(stream)
    }
}
