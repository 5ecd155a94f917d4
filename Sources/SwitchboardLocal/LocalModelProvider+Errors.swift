import SwitchboardCore

extension LocalModelProvider {
    /// Every failure leaves the provider as a `ProviderError`, classified for the router: a context that
    /// is too small is fallback-only, cancellation is final, a model that cannot load is unavailable.
    static func providerError(_ error: any Error) -> ProviderError {
        switch error {
        case let error as ProviderError: error
        case is CancellationError: .cancelled
        case let error as LocalModelError: .unavailable(error.description)
        default: ProviderError.unavailable("on-device engine failure: \(String(describing: error))")
        }
    }
}
