import SwitchboardCore

/// What routing did for one answer (`ResponseStream.events`), in order: `analyzed` →
/// `providerChosen` → ((`fallback` | `resumed`) → `providerChosen`)*, with `hedged` where a second
/// provider was started beside a slow first one. In a session with tools, each round starts with
/// its own `analyzed`, and the calls the model made and their results come as `toolCall` and
/// `toolResult`. FoundationModels has one model and no routing, so it has no such sequence.
public enum RoutingEvent: Sendable {
    /// The request's privacy level, findings and size, before any provider is chosen.
    case analyzed(RequestAnalysis)
    case providerChosen(ProviderID, attempt: Int)
    /// `from` failed before any of its text was shown; `to` is tried next.
    case fallback(from: ProviderID, to: ProviderID, reason: ProviderError)
    /// `from` failed after some of its text was shown; `to` continues it (`carried` says how much).
    case resumed(from: ProviderID, to: ProviderID, reason: ProviderError, carried: CarriedText)
    /// `primary` had not produced a first token in time, so `hedge` was started too.
    case hedged(primary: ProviderID, hedge: ProviderID)
    /// The model called a tool (reported when its provider call finished).
    case toolCall(ToolCall)
    /// A session ran a tool and hands this result back to the model.
    case toolResult(ToolResult)

    /// The routing part of a request's events (nil for its text and its end).
    package init?(_ event: SwitchboardEvent) {
        switch event {
        case .analyzed(let analysis): self = .analyzed(analysis)
        case .providerChosen(let id, let attempt): self = .providerChosen(id, attempt: attempt)
        case .fallback(let from, let to, let reason): self = .fallback(from: from, to: to, reason: reason)
        case .resumed(let from, let to, let reason, let carried): self = .resumed(from: from, to: to, reason: reason, carried: carried)
        case .hedged(let primary, let hedge): self = .hedged(primary: primary, hedge: hedge)
        case .toolCall(let call): self = .toolCall(call)
        case .toolResult(let result): self = .toolResult(result)
        case .token, .completed, .failed: return nil
        }
    }
}
