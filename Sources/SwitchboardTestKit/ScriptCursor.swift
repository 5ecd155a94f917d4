import Synchronization
import SwitchboardCore

/// Replays an instant script one event per `next()`, without a buffer or a producer task.
final class ScriptCursor: Sendable {
    private let events: [ProviderEvent]
    private let ending: ProviderError?
    private let position = Atomic<Int>(0)

    init(tokens: [String], toolCalls: [ToolCall] = [], finish: ProviderEvent, fault: Fault?) {
        switch fault {
        case .error(let error)?: events = []; ending = error
        case .failAfterTokens(let n, let error)?: events = tokens.prefix(max(0, n)).map(ProviderEvent.token); ending = error
        case .truncate?: events = tokens.map(ProviderEvent.token); ending = nil
        case .hang?, nil: events = tokens.map(ProviderEvent.token) + toolCalls.map(ProviderEvent.toolCall) + [finish]; ending = nil
        }
    }

    func next() throws -> ProviderEvent? {
        let index = position.add(1, ordering: .relaxed).oldValue
        if index < events.count { return events[index] }
        if index == events.count, let ending { throw ending }
        return nil
    }
}
