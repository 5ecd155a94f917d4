import Foundation
import SwitchboardCore

/// A remote API as a provider: OpenAI-compatible servers, Anthropic and Gemini. One type for all three:
/// what differs is the wire format (an internal `RemoteWireFormat`), chosen by the factory;
/// everything else (keys, budget, deadlines, byte caps, usage and cost) is the shared `RemoteCall`.
///
/// ```swift
/// let openAI = RemoteProvider.openAI(model: "gpt-4o-mini", credentials: .store(keys, KeyReference("openai")))
/// let claude = RemoteProvider.anthropic(model: "claude-sonnet-4-5", credentials: .store(keys, KeyReference("anthropic")))
/// let server = RemoteProvider.openAI(model: "gemma", baseURL: URL(string: "http://127.0.0.1:8080/v1")!)
/// ```
///
/// A struct, not an actor: it holds no mutable state (the ledger and the key store are actors of their
/// own), so a call needs no hop.
public struct RemoteProvider: Provider {
    public let id: ProviderID
    public let capabilities: ProviderCapabilities
    /// The model name sent to the API.
    public let model: String
    public let settings: RemoteProviderSettings
    private let call: any RemoteCalling

    /// How an OpenAI-compatible server is asked for what it may not support.
    public struct OpenAIOptions: Sendable, Hashable {
        /// How structured output is requested.
        public enum ResponseFormat: Sendable, Hashable {
            /// `{"type": "json_schema", "json_schema": {name, schema, strict}}`: OpenAI, llama.cpp's own
            /// server, vLLM, Ollama, LM Studio.
            case jsonSchema
            /// `{"type": "json_object", "schema": ...}`: llama-cpp-python's server, which rejects `json_schema`.
            case jsonObjectWithSchema
        }
        /// Ask for usage in the stream (`stream_options.include_usage`); turn off for servers that reject it.
        public var includeStreamUsage: Bool
        /// `strict` in `response_format.json_schema`.
        public var strictJSONSchema: Bool
        /// Also send `top_k`, `min_p` and `repeat_penalty` (llama.cpp, vLLM; OpenAI rejects them).
        public var sendExtendedSampling: Bool
        public var responseFormat: ResponseFormat

        public init(includeStreamUsage: Bool = true, strictJSONSchema: Bool = true, sendExtendedSampling: Bool = false,
                    responseFormat: ResponseFormat = .jsonSchema) {
            self.includeStreamUsage = includeStreamUsage; self.strictJSONSchema = strictJSONSchema
            self.sendExtendedSampling = sendExtendedSampling; self.responseFormat = responseFormat
        }
    }

    public static let openAIBaseURL = constantURL("https://api.openai.com/v1")
    public static let anthropicBaseURL = constantURL("https://api.anthropic.com/v1")
    public static let geminiBaseURL = constantURL("https://generativelanguage.googleapis.com/v1beta")

    /// Any server speaking OpenAI's Chat Completions: OpenAI itself, llama.cpp's server, Ollama, vLLM,
    /// LM Studio. `baseURL` goes up to and including `/v1`; the key is optional (local servers need none).
    /// `headers` go with every request (e.g. `OpenAI-Organization`): never put secrets there, use `credentials`.
    public static func openAI(model: String, baseURL: URL = openAIBaseURL, credentials: APICredentials = .none,
                              id: ProviderID = "openai-compatible", options: OpenAIOptions = OpenAIOptions(),
                              headers: [String: String] = [:], settings: RemoteProviderSettings = RemoteProviderSettings(),
                              transport: any HTTPTransport = URLSessionTransport()) -> RemoteProvider {
        let wire = OpenAIWireFormat(baseURL: baseURL, model: model, includeStreamUsage: options.includeStreamUsage,
                                    strictJSONSchema: options.strictJSONSchema,
                                    sendExtendedSampling: options.sendExtendedSampling,
                                    responseFormatStyle: options.responseFormat, extraHeaders: headers)
        return RemoteProvider(id: id, model: model, wire: wire, credentials: credentials, settings: settings, transport: transport)
    }

    /// Anthropic's Messages API. Needs a key (`x-api-key`); images go as base64 sources.
    public static func anthropic(model: String, credentials: APICredentials, baseURL: URL = anthropicBaseURL,
                                 id: ProviderID = "anthropic", headers: [String: String] = [:],
                                 settings: RemoteProviderSettings = RemoteProviderSettings(maxContextTokens: 200_000, supportsImages: true),
                                 transport: any HTTPTransport = URLSessionTransport()) -> RemoteProvider {
        let wire = AnthropicWireFormat(baseURL: baseURL, model: model, extraHeaders: headers)
        return RemoteProvider(id: id, model: model, wire: wire, credentials: credentials, settings: settings, transport: transport)
    }

    /// Google Gemini. Needs a key (`x-goog-api-key`); images go as inline data; JSON output uses
    /// `responseSchema`. `baseURL` goes up to and including the API version, e.g. `/v1beta`.
    public static func gemini(model: String, credentials: APICredentials, baseURL: URL = geminiBaseURL,
                              id: ProviderID = "gemini", headers: [String: String] = [:],
                              settings: RemoteProviderSettings = RemoteProviderSettings(
                                maxContextTokens: 1_000_000, supportsImages: true, supportsStructuredOutput: true),
                              transport: any HTTPTransport = URLSessionTransport()) -> RemoteProvider {
        let wire = GeminiWireFormat(baseURL: baseURL, model: model, extraHeaders: headers)
        return RemoteProvider(id: id, model: model, wire: wire, credentials: credentials, settings: settings, transport: transport)
    }

    private init<Wire: RemoteWireFormat>(id: ProviderID, model: String, wire: Wire, credentials: APICredentials,
                                         settings: RemoteProviderSettings, transport: any HTTPTransport) {
        self.id = id; self.model = model; self.settings = settings
        capabilities = settings.capabilities
        call = RemoteCall(id: id, model: model, wire: wire, credentials: credentials, settings: settings, transport: transport)
    }

    public func availability() async -> ProviderAvailability { await call.availability() }

    public func generate(_ request: ProviderRequest) -> ProviderEventStream { call.start(request) }

    /// Requests, tokens and cost so far.
    public func usage() async -> ProviderUsageTotals { await settings.ledger.totals(for: id) }
}

/// `RemoteCall` with its wire format erased, so one provider type serves every API.
protocol RemoteCalling: Sendable {
    func start(_ request: ProviderRequest) -> ProviderEventStream
    func availability() async -> ProviderAvailability
}

extension RemoteCall: RemoteCalling {}
