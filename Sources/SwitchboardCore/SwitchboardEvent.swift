/// What `Coordinator.stream(_:)` yields for one request, in order:
/// `analyzed` → `providerChosen` → `token`* → (`fallback` → `providerChosen` → `token`*)* → exactly one
/// terminal event, `completed` or `failed`. After tokens have reached the caller a failure does not
/// end the request: `resumed` says which provider continues the same answer, and its tokens carry on
/// where the failed one stopped (no text repeated, none lost). `hedged` says a second provider was
/// started beside a slow first one; only the winner's tokens are yielded.
package enum SwitchboardEvent: Sendable {
    case analyzed(RequestAnalysis)
    case providerChosen(ProviderID, attempt: Int)
    case token(String)
    /// The model called one of the request's tools (reported when its provider call finished).
    case toolCall(ToolCall)
    /// A session ran a tool and hands this result back to the model (`Session.streamResponse`).
    case toolResult(ToolResult)
    case fallback(from: ProviderID, to: ProviderID, reason: ProviderError)
    /// `from` failed after some of its text reached the caller; `to` continues that text, all of it or
    /// as much as its context holds (`carried`), or starts over when none fits.
    case resumed(from: ProviderID, to: ProviderID, reason: ProviderError, carried: CarriedText)
    /// `primary` had not produced a first token in time, so `hedge` was started too.
    case hedged(primary: ProviderID, hedge: ProviderID)
    case completed(GenerationResponse)
    case failed(SwitchboardError)

    package var isTerminal: Bool {
        switch self {
        case .completed, .failed: true
        default: false
        }
    }
}
