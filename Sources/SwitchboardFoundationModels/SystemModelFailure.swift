import SwitchboardCore

/// What went wrong in the framework, as plain values: one case per error the framework documents,
/// for OS 26 (`LanguageModelSession.GenerationError`) and OS 27 (`LanguageModelError`,
/// `LanguageModelSession.Error`, `SystemLanguageModel.Error`) alike. The shell reads the framework's
/// error into this (thin: one line per case); the mapping to Switchboard's typed errors is here.
/// - https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror
/// - https://developer.apple.com/documentation/foundationmodels/languagemodelerror
/// - https://developer.apple.com/documentation/foundationmodels/languagemodelsession/error
package enum SystemModelFailure: Error, Sendable, Hashable {
    /// `exceededContextWindowSize` (26) / `contextSizeExceeded` (27, with both numbers).
    case contextWindowExceeded(contextSize: Int?, tokenCount: Int?)
    /// `guardrailViolation`: the safety guardrails stopped the prompt or the answer.
    case guardrailViolation
    /// `refusal`: the model declined to answer (no guardrail involved).
    case refusal
    /// `rateLimited`: the system throttles this app (background use, load).
    case rateLimited
    /// `concurrentRequests`: the session was already answering.
    case concurrentRequests
    /// `assetsUnavailable`: the model's assets are not on the device (yet, or any more).
    case assetsUnavailable
    /// `unsupportedLanguageOrLocale`, with the language when the OS says it (27).
    case unsupportedLanguageOrLocale(language: String?)
    /// `decodingFailure`: the output did not decode into the requested schema.
    case decodingFailure
    /// `unsupportedGuide` (26) / `unsupportedGenerationGuide` (27): a guide (often a regex) the model cannot follow.
    case unsupportedGuide
    /// `transcriptMutationWhileResponding` (27): the transcript changed under a running request.
    case transcriptMutationWhileResponding
    case cancelled
    /// An error the framework added after this was written: its type name only (never its message,
    /// which may quote the prompt).
    case unknown(typeName: String)

    /// The typed error the router acts on.
    ///
    /// | failure | error | router |
    /// |---|---|---|
    /// | context window exceeded | `contextLengthExceeded` | a provider with a larger context |
    /// | guardrail, refusal | `contentPolicy` | another provider (the engine included) |
    /// | rate limited, concurrent requests | `rateLimited` | retry (here or elsewhere) |
    /// | assets unavailable | `unavailable` | another provider |
    /// | unsupported language | `invalidRequest` naming the language | another provider |
    /// | decoding failure | `malformedResponse` | retry: the next sample may decode |
    /// | unsupported guide | `invalidRequest` | another provider (the schema is fine elsewhere) |
    /// | transcript mutated | `transport` | retry on a fresh session |
    /// | unknown | `transport` naming the type | retry, then fall back |
    package func providerError(contextSize fallbackContextSize: Int) -> ProviderError {
        switch self {
        case .contextWindowExceeded(let contextSize, let tokenCount):
            let limit = contextSize ?? fallbackContextSize
            return .contextLengthExceeded(limit: limit, requested: tokenCount ?? limit.saturatingAdd(1))
        case .guardrailViolation: return .contentPolicy("the system model's guardrails stopped the request")
        case .refusal: return .contentPolicy("the system model declined to answer")
        case .rateLimited: return .rateLimited(retryAfter: nil)
        case .concurrentRequests: return .rateLimited(retryAfter: nil)
        case .assetsUnavailable: return .unavailable("the system model's assets are not on this device")
        case .unsupportedLanguageOrLocale(let language):
            return .invalidRequest("the system model does not support the language " + (language.map { "'\($0)'" } ?? "of this request"))
        case .decodingFailure: return .malformedResponse("the system model's output did not decode into the schema")
        case .unsupportedGuide: return .invalidRequest("the system model cannot follow a guide of this schema")
        case .transcriptMutationWhileResponding: return .transport("the session's transcript changed while it answered")
        case .cancelled: return .cancelled
        case .unknown(let typeName): return .transport("system model error \(typeName)")
        }
    }
}

/// `SystemLanguageModel.Availability` as plain values.
/// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.enum
package enum SystemModelAvailability: Sendable, Hashable {
    case available
    case deviceNotEligible
    case appleIntelligenceNotEnabled
    /// Downloading, or waiting for the system to download (network, battery, load decide when).
    case modelNotReady
    /// A reason added after this was written.
    case unavailableOther

    /// As the router reads it. Not ready is `loading`: the model will come without the user doing
    /// anything, so the provider stays registered; the call itself refuses while it is not there
    /// (`FoundationModelsProvider.generate` re-reads this), and the router falls back. The other
    /// reasons need the user (Settings) or never change: `unavailable`, with a reason a person can act on.
    package var providerAvailability: ProviderAvailability {
        switch self {
        case .available: .ready
        case .modelNotReady: .loading(progress: 0)
        case .deviceNotEligible: .unavailable(reason: "this device cannot run Apple Intelligence")
        case .appleIntelligenceNotEnabled: .unavailable(reason: "Apple Intelligence is turned off in Settings")
        case .unavailableOther: .unavailable(reason: "the system model is unavailable")
        }
    }
}
