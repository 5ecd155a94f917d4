import Foundation
import SwitchboardCore

/// Any server speaking OpenAI's Chat Completions: OpenAI itself, llama.cpp's server, Ollama, vLLM,
/// LM Studio. The key is optional (local servers need none).
public actor OpenAICompatibleProvider: Provider {
    /// How structured output is requested.
    public enum ResponseFormatStyle: Sendable, Hashable {
        /// `{"type": "json_schema", "json_schema": {name, schema, strict}}`: OpenAI, llama.cpp's own
        /// server, vLLM, Ollama, LM Studio.
        case jsonSchema
        /// `{"type": "json_object", "schema": ...}`: llama-cpp-python's server, which rejects `json_schema`.
        case jsonObjectWithSchema
    }

    public struct Configuration: Sendable {
        public static let openAIBaseURL = constantURL("https://api.openai.com/v1")
        public var id: ProviderID
        /// Up to and including `/v1`, e.g. `http://127.0.0.1:8080/v1`.
        public var baseURL: URL
        public var model: String
        public var credentials: APICredentials
        /// Ask for usage in the stream (`stream_options.include_usage`); turn off for servers that reject it.
        public var includeStreamUsage: Bool
        /// `strict` in `response_format.json_schema`.
        public var strictJSONSchema: Bool
        /// Also send `top_k`, `min_p` and `repeat_penalty` (llama.cpp, vLLM; OpenAI rejects them).
        public var sendExtendedSampling: Bool
        public var responseFormatStyle: ResponseFormatStyle
        /// Sent with every request (e.g. `OpenAI-Organization`); never put secrets here, use `credentials`.
        public var extraHeaders: [String: String]
        public var settings: RemoteProviderSettings

        public init(id: ProviderID = "openai-compatible", baseURL: URL = openAIBaseURL, model: String,
                    credentials: APICredentials = .none, includeStreamUsage: Bool = true, strictJSONSchema: Bool = true,
                    sendExtendedSampling: Bool = false, responseFormatStyle: ResponseFormatStyle = .jsonSchema, extraHeaders: [String: String] = [:],
                    settings: RemoteProviderSettings = RemoteProviderSettings()) {
            self.id = id; self.baseURL = baseURL; self.model = model; self.credentials = credentials
            self.includeStreamUsage = includeStreamUsage; self.strictJSONSchema = strictJSONSchema
            self.sendExtendedSampling = sendExtendedSampling; self.responseFormatStyle = responseFormatStyle
            self.extraHeaders = extraHeaders; self.settings = settings
        }
    }

    public nonisolated let id: ProviderID
    public nonisolated let capabilities: ProviderCapabilities
    public nonisolated let configuration: Configuration
    private let call: RemoteCall<OpenAIWireFormat>

    public init(_ configuration: Configuration, transport: any HTTPTransport = URLSessionTransport()) {
        self.configuration = configuration
        id = configuration.id
        capabilities = configuration.settings.capabilities
        call = RemoteCall(id: configuration.id, model: configuration.model,
                          wire: OpenAIWireFormat(baseURL: configuration.baseURL, model: configuration.model,
                                                 includeStreamUsage: configuration.includeStreamUsage,
                                                 strictJSONSchema: configuration.strictJSONSchema,
                                                 sendExtendedSampling: configuration.sendExtendedSampling,
                                                 responseFormatStyle: configuration.responseFormatStyle,
                                                 extraHeaders: configuration.extraHeaders),
                          credentials: configuration.credentials, settings: configuration.settings, transport: transport)
    }

    public func availability() async -> ProviderAvailability { await call.availability() }

    public func generate(_ request: ProviderRequest) -> ProviderEventStream {
        call.start(request)
    }

    /// Requests, tokens and cost so far.
    public func usage() async -> ProviderUsageTotals { await configuration.settings.ledger.totals(for: id) }
}
