import Foundation
import SwitchboardCore

/// Google Gemini. Needs a key (`x-goog-api-key` header); images go as inline data; JSON output uses `responseSchema`.
public actor GeminiProvider: Provider {
    public struct Configuration: Sendable {
        public static let geminiBaseURL = constantURL("https://generativelanguage.googleapis.com/v1beta")
        public var id: ProviderID
        /// Up to and including the API version, e.g. `/v1beta`.
        public var baseURL: URL
        public var model: String
        public var credentials: APICredentials
        public var extraHeaders: [String: String]
        public var settings: RemoteProviderSettings

        public init(id: ProviderID = "gemini", baseURL: URL = geminiBaseURL, model: String,
                    credentials: APICredentials, extraHeaders: [String: String] = [:],
                    settings: RemoteProviderSettings = RemoteProviderSettings(maxContextTokens: 1_000_000, supportsImages: true, supportsStructuredOutput: true)) {
            self.id = id; self.baseURL = baseURL; self.model = model; self.credentials = credentials
            self.extraHeaders = extraHeaders; self.settings = settings
        }
    }

    public nonisolated let id: ProviderID
    public nonisolated let capabilities: ProviderCapabilities
    public nonisolated let configuration: Configuration
    private let call: RemoteCall<GeminiWireFormat>

    public init(_ configuration: Configuration, transport: any HTTPTransport = URLSessionTransport()) {
        self.configuration = configuration
        id = configuration.id
        capabilities = configuration.settings.capabilities
        call = RemoteCall(id: configuration.id, model: configuration.model,
                          wire: GeminiWireFormat(baseURL: configuration.baseURL, model: configuration.model,
                                                    extraHeaders: configuration.extraHeaders),
                          credentials: configuration.credentials, settings: configuration.settings, transport: transport)
    }

    public func availability() async -> ProviderAvailability { await call.availability() }

    public func generate(_ request: ProviderRequest) -> ProviderEventStream {
        call.start(request)
    }

    public func usage() async -> ProviderUsageTotals { await configuration.settings.ledger.totals(for: id) }
}
