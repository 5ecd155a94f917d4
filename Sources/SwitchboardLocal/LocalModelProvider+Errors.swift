import SwitchboardCore
import SwitchboardInference

extension LocalModelProvider {
    /// Every failure leaves the provider as a `ProviderError`, classified for the router: a context that
    /// is too small is fallback-only, cancellation is final, a model that cannot load is unavailable.
    static func providerError(_ error: any Error) -> ProviderError {
        switch error {
        case let error as ProviderError: error
        case is CancellationError: .cancelled
        case let error as LocalModelError: .unavailable(error.description)
        case let error as InferenceError: providerError(error)
        default: ProviderError.unavailable("on-device engine failure: \(String(describing: error))")
        }
    }
}

extension LocalModelProvider {
    static func providerError(_ error: InferenceError) -> ProviderError {
        switch error {
        case .contextLengthExceeded(let limit, let requested): .contextLengthExceeded(limit: limit, requested: requested)
        // Too big for this engine's KV memory: another eligible provider may take it.
        case .emptyPrompt, .invalidToken, .kvBudgetExceeded: .invalidRequest(error.description)
        case .cancelled: .cancelled
        case .gguf, .unsupportedArchitecture, .missingTensor, .unsupportedTensor, .tokenizer, .batchTooLarge: .unavailable(error.description)
        // Too small a budget is the caller's to fix; a schema this engine cannot enforce may suit another provider.
        case .constraint(.budgetTooSmall): .invalidRequest(error.description)
        case .constraint: .unavailable(error.description)
        }
    }
}
