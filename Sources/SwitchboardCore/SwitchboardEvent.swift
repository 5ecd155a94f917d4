/// What `Coordinator.stream(_:)` yields for one request, in order:
/// `analyzed` → `providerChosen` → `token`* → (`fallback` → `providerChosen` → `token`*)* → exactly one
/// terminal event, `completed` or `failed`.
public enum SwitchboardEvent: Sendable {
    case analyzed(RequestAnalysis)
    case providerChosen(ProviderID, attempt: Int)
    case token(String)
    case fallback(from: ProviderID, to: ProviderID, reason: ProviderError)
    case completed(GenerationResponse)
    case failed(SwitchboardError)

    public var isTerminal: Bool {
        switch self {
        case .completed, .failed: true
        default: false
        }
    }
}
