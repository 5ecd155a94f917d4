/// How one request was routed, explainable after the fact without its text: the privacy level, the
/// kinds of data found (never the values), the providers left out and why, every attempt and fallback
/// (each reason a kind, never a server message), the provider that answered and whether the request
/// left the device. One JSON object per record (`jsonLine`).
public struct RoutingAuditRecord: Sendable, Hashable, Codable {
    public struct Exclusion: Sendable, Hashable, Codable {
        public var provider: ProviderID
        public var reason: String

        enum CodingKeys: String, CodingKey { case provider, reason }
        public init(provider: ProviderID, reason: String) { self.provider = provider; self.reason = reason }
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            provider = ProviderID(try container.decode(String.self, forKey: .provider))
            reason = try container.decode(String.self, forKey: .reason)
        }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(provider.rawValue, forKey: .provider)
            try container.encode(reason, forKey: .reason)
        }
    }
    public struct Attempt: Sendable, Hashable, Codable {
        public var provider: ProviderID
        public var onDevice: Bool
        /// Nil for the attempt that succeeded (or is still the last); else the failure's kind.
        public var failure: String?
        public init(provider: ProviderID, onDevice: Bool, failure: String? = nil) {
            self.provider = provider; self.onDevice = onDevice; self.failure = failure
        }

        enum CodingKeys: String, CodingKey { case provider, onDevice = "on_device", failure }
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            provider = ProviderID(try container.decode(String.self, forKey: .provider))
            onDevice = try container.decode(Bool.self, forKey: .onDevice)
            failure = try container.decodeIfPresent(String.self, forKey: .failure)
        }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(provider.rawValue, forKey: .provider)
            try container.encode(onDevice, forKey: .onDevice)
            try container.encodeIfPresent(failure, forKey: .failure)
        }
    }
    public enum Outcome: String, Sendable, Hashable, Codable {
        case completed, cached, failed, cancelled
    }
    /// What the request asked for: a generation, or vectors (`Coordinator.embed`).
    public enum Kind: String, Sendable, Hashable, Codable {
        case generation, embedding
    }

    public var requestID: UInt64
    /// Seconds on the coordinator's clock when the request finished.
    public var time: Double
    public var privacy: PrivacyLevel
    /// Kinds found, sorted, each once.
    public var categories: [EntityKind]
    public var excluded: [Exclusion]
    public var attempts: [Attempt]
    public var chosen: ProviderID?
    public var outcome: Outcome
    public var kind: Kind
    /// Whether any attempt went to a provider off the device.
    public var leftDevice: Bool { attempts.contains { !$0.onDevice } }

    public init(requestID: UInt64, time: Double, analysis: RequestAnalysis, excluded: [Ineligibility],
                attempts: [Attempt], chosen: ProviderID?, outcome: Outcome, kind: Kind = .generation) {
        self.requestID = requestID; self.time = time; privacy = analysis.privacy
        categories = Set(analysis.entities.map(\.kind)).sorted { $0.rawValue < $1.rawValue }
        var seen = Set<ProviderID>()
        self.excluded = excluded.compactMap { item in
            seen.insert(item.provider).inserted ? Exclusion(provider: item.provider, reason: "\(item.reason)") : nil
        }
        self.attempts = attempts; self.chosen = chosen; self.outcome = outcome; self.kind = kind
    }

    enum CodingKeys: String, CodingKey {
        case requestID = "request_id", time, privacy, categories, excluded, attempts, chosen, outcome
        case leftDevice = "left_device", kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestID, forKey: .requestID)
        try container.encode(time, forKey: .time)
        try container.encode(privacy.description, forKey: .privacy)
        try container.encode(categories, forKey: .categories)
        try container.encode(excluded, forKey: .excluded)
        try container.encode(attempts, forKey: .attempts)
        try container.encodeIfPresent(chosen?.rawValue, forKey: .chosen)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(leftDevice, forKey: .leftDevice)
        try container.encode(kind, forKey: .kind)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestID = try container.decode(UInt64.self, forKey: .requestID)
        time = try container.decode(Double.self, forKey: .time)
        let level = try container.decode(String.self, forKey: .privacy)
        guard let privacy = PrivacyLevel.allCases.first(where: { $0.description == level }) else {
            throw DecodingError.dataCorruptedError(forKey: .privacy, in: container, debugDescription: "unknown privacy level '\(level)'")
        }
        self.privacy = privacy
        categories = try container.decode([EntityKind].self, forKey: .categories)
        excluded = try container.decode([Exclusion].self, forKey: .excluded)
        attempts = try container.decode([Attempt].self, forKey: .attempts)
        chosen = try container.decodeIfPresent(String.self, forKey: .chosen).map { ProviderID($0) }
        outcome = try container.decode(Outcome.self, forKey: .outcome)
        kind = try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .generation  // records written before kinds existed
    }
}

extension ProviderError {
    /// The error's kind without any message a server wrote ("server 503", "timeout").
    public var auditKind: String {
        switch self {
        case .timeout: "timeout"
        case .transport: "transport"
        case .server(let status, _): "server \(status)"
        case .rateLimited: "rateLimited"
        case .authentication: "authentication"
        case .invalidRequest: "invalidRequest"
        case .unknownModel: "unknownModel"
        case .contentPolicy: "contentPolicy"
        case .contextLengthExceeded: "contextLengthExceeded"
        case .malformedResponse: "malformedResponse"
        case .budgetExceeded: "budgetExceeded"
        case .unavailable: "unavailable"
        case .tokenTimeout: "tokenTimeout"
        case .callTimeout: "callTimeout"
        case .responseTooLarge: "responseTooLarge"
        case .cancelled: "cancelled"
        }
    }
}
