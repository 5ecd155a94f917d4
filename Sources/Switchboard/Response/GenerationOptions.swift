import SwitchboardCore

/// How one answer is generated, in the shape of FoundationModels' `GenerationOptions`. A request
/// built by hand (`GenerationRequest`) sets these, and everything routing reads, itself.
public struct GenerationOptions: Sendable, Hashable {
    /// Sampling (temperature, top-k/p, seed, stop sequences); greedy when nil.
    public var sampling: SamplingOptions?
    /// Overrides the sampling's temperature.
    public var temperature: Double?
    /// The longest answer in tokens; 256 when nil (a session's own `Options.maxTokens`).
    public var maximumResponseTokens: Int?

    public init(sampling: SamplingOptions? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.sampling = sampling; self.temperature = temperature; self.maximumResponseTokens = maximumResponseTokens
    }

    static let defaultMaximumResponseTokens = 256

    /// A one-message chat request for `prompt`.
    func request(for prompt: String) -> GenerationRequest {
        var request = GenerationRequest(prompt: prompt, maxTokens: maximumResponseTokens ?? Self.defaultMaximumResponseTokens)
        apply(to: &request)
        return request
    }

    func apply(to request: inout GenerationRequest) {
        if let sampling { request.sampling = sampling }
        if let temperature { request.sampling.temperature = temperature }
        if let maximumResponseTokens { request.maxTokens = maximumResponseTokens }
    }
}
