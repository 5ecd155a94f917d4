/// Removes a provider's secrets (its API key, in whatever form a server echoes it) from text. A
/// provider that holds a secret supplies one (`Provider.secretRedactor`), and the runtime passes every
/// provider message it keeps or reports through it: failure messages in errors, events, metrics and
/// the audit trail. The answer itself goes to the caller untouched: what the app does with it is the
/// app's business.
public protocol SecretRedacting: Sendable {
    func redact(_ text: String) -> String
}

extension Provider {
    /// No secrets to remove, unless the provider says otherwise.
    public var secretRedactor: (any SecretRedacting)? { nil }
}

extension ProviderError {
    /// The error with every message a server or provider wrote passed through `redactor`.
    public func redacted(by redactor: any SecretRedacting) -> ProviderError {
        switch self {
        case .transport(let m): .transport(redactor.redact(m))
        case .server(let status, let m): .server(status: status, message: redactor.redact(m))
        case .authentication(let m): .authentication(redactor.redact(m))
        case .invalidRequest(let m): .invalidRequest(redactor.redact(m))
        case .unknownModel(let m): .unknownModel(redactor.redact(m))
        case .contentPolicy(let m): .contentPolicy(redactor.redact(m))
        case .malformedResponse(let m): .malformedResponse(redactor.redact(m))
        case .budgetExceeded(let m): .budgetExceeded(redactor.redact(m))
        case .unavailable(let m): .unavailable(redactor.redact(m))
        case .responseTooLarge(let what, let limit): .responseTooLarge(what: redactor.redact(what), limit: limit)
        case .timeout, .rateLimited, .contextLengthExceeded, .tokenTimeout, .callTimeout, .cancelled: self
        }
    }
}
