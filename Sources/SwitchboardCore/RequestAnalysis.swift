/// How private a request is. Ordered: a higher level never goes where a lower one may not.
public enum PrivacyLevel: Int, Sendable, Hashable, Comparable, Codable, CaseIterable, CustomStringConvertible {
    case `public` = 0, contextual = 1, personal = 2, sensitive = 3
    public static func < (a: PrivacyLevel, b: PrivacyLevel) -> Bool { a.rawValue < b.rawValue }
    public var description: String {
        switch self {
        case .public: "public"
        case .contextual: "contextual"
        case .personal: "personal"
        case .sensitive: "sensitive"
        }
    }
}

/// A kind of private data found in a request. Only the kind and place are kept, never the text.
public enum EntityKind: String, Sendable, Hashable, Codable, CaseIterable {
    case paymentCard = "payment_card"
    case nationalID = "national_id"
    case iban
    case secret
    case passport
    case health
    case email
    case phone
    case streetAddress = "street_address"
    case dateOfBirth = "date_of_birth"
    case personalContext = "personal_context"
    case personalMemory = "personal_memory"
    /// The on-device privacy classifier scored the text private (`PrivacyClassifier`).
    case privateMeaning = "private_meaning"
    /// A bank account tied to its bank: routing + account, BIC/SWIFT + account, sort code + account.
    case bankAccount = "bank_account"
    /// A device's own serial identity (IMEI).
    case deviceID = "device_id"
    /// A vehicle identification number (VIN).
    case vehicleID = "vehicle_id"
    /// GDPR article 9 data other than health: sexual orientation, gender identity, religion, politics,
    /// trade-union membership, and criminal record, immigration status, ethnicity, genetic data.
    case specialCategory = "special_category"
    /// Where a person lives, precisely: home coordinates, the home network's public IP address.
    case location

    public var privacy: PrivacyLevel {
        switch self {
        case .paymentCard, .nationalID, .iban, .secret, .passport, .health, .bankAccount, .privateMeaning, .specialCategory:
            .sensitive
        case .email, .phone, .streetAddress, .dateOfBirth, .personalMemory, .deviceID, .vehicleID, .location: .personal
        case .personalContext: .contextual
        }
    }

    /// Health and the special categories are about a person by construction (a recognizer only reports
    /// them tied to one), so no finding of these kinds may lower the level below sensitive, whatever level
    /// a recognizer (built-in or an app's) attached to it: `contextual` would let them reach any remote.
    public var isSpecialCategory: Bool { self == .health || self == .specialCategory }
}

public struct DetectedEntity: Sendable, Hashable {
    public var kind: EntityKind
    /// UTF-8 byte offsets in the analyzed text (which text: `textIndex` into `GenerationRequest.allText`).
    public var textIndex: Int
    public var range: Range<Int>
    /// The recognizer (and its rule or scheme) that found it, for `analyze` reasons; never the text.
    public var recognizer: String
    public init(kind: EntityKind, textIndex: Int = 0, range: Range<Int> = 0..<0, recognizer: String = "") {
        self.kind = kind; self.textIndex = textIndex; self.range = range; self.recognizer = recognizer
    }
}

public enum Complexity: Int, Sendable, Hashable, Comparable, Codable {
    case simple = 0, moderate = 1, complex = 2
    public static func < (a: Complexity, b: Complexity) -> Bool { a.rawValue < b.rawValue }
}

/// What the analyzer found in a request; routing decides from this.
public struct RequestAnalysis: Sendable, Hashable {
    public var privacy: PrivacyLevel
    public var entities: [DetectedEntity]
    public var estimatedPromptTokens: Int
    public var imageCount: Int
    public var wantsStructuredOutput: Bool
    public var complexity: Complexity
    /// BCP 47-ish guess ("en", "und" when unknown).
    public var language: String
    public var latencyBudget: Duration?
    /// Entities found but not kept in `entities` (over `AnalyzerConfiguration.maxEntities`); `privacy`
    /// still counts them.
    public var omittedEntities = 0

    public init(privacy: PrivacyLevel, entities: [DetectedEntity] = [], estimatedPromptTokens: Int = 0,
                imageCount: Int = 0, wantsStructuredOutput: Bool = false, complexity: Complexity = .simple,
                language: String = "und", latencyBudget: Duration? = nil) {
        self.privacy = privacy; self.entities = entities; self.estimatedPromptTokens = estimatedPromptTokens
        self.imageCount = imageCount; self.wantsStructuredOutput = wantsStructuredOutput
        self.complexity = complexity; self.language = language; self.latencyBudget = latencyBudget
    }

    /// Used when analysis itself fails: fail closed.
    public static func failClosed(for request: GenerationRequest) -> RequestAnalysis {
        RequestAnalysis(privacy: .sensitive, imageCount: request.images.count,
                        wantsStructuredOutput: request.output.isStructured, latencyBudget: request.latencyBudget)
    }
}
