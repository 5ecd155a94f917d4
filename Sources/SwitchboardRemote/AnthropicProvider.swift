import Foundation
import SwitchboardCore

/// Anthropic's Messages API. Needs a key (`x-api-key`); images go as base64 sources.
public actor AnthropicProvider: Provider {
    public struct Configuration: Sendable {
        public static let anthropicBaseURL = constantURL("https://api.anthropic.com/v1")
        public var id: ProviderID
        /// Up to and including `/v1`.
        public var baseURL: URL
        public var model: String
        public var credentials: APICredentials
        public var extraHeaders: [String: String]
        public var settings: RemoteProviderSettings

        public init(id: ProviderID = "anthropic", baseURL: URL = anthropicBaseURL, model: String,
                    credentials: APICredentials, extraHeaders: [String: String] = [:],
                    settings: RemoteProviderSettings = RemoteProviderSettings(maxContextTokens: 200_000, supportsImages: true)) {
            self.id = id; self.baseURL = baseURL; self.model = model; self.credentials = credentials
            self.extraHeaders = extraHeaders; self.settings = settings
        }
    }

    public nonisolated let id: ProviderID
    public nonisolated let capabilities: ProviderCapabilities
    public nonisolated let configuration: Configuration
    private let call: RemoteCall<AnthropicWireFormat>

    public init(_ configuration: Configuration, transport: any HTTPTransport = URLSessionTransport()) {
        self.configuration = configuration
        id = configuration.id
        capabilities = configuration.settings.capabilities
        call = RemoteCall(id: configuration.id, model: configuration.model,
                          wire: AnthropicWireFormat(baseURL: configuration.baseURL, model: configuration.model,
                                                    extraHeaders: configuration.extraHeaders),
                          credentials: configuration.credentials, settings: configuration.settings, transport: transport)
    }

    public func availability() async -> ProviderAvailability { await call.availability() }

    public func generate(_ request: ProviderRequest) -> ProviderEventStream {
        call.start(request)
    }

    public func usage() async -> ProviderUsageTotals { await configuration.settings.ledger.totals(for: id) }
}
