import Foundation

/// A record of what happened to a key, never the key itself.
public struct KeyAuditEvent: Sendable, Hashable, CustomStringConvertible {
    public enum Action: String, Sendable, Hashable {
        case stored, used, rotated, deleted, missing
    }
    public var action: Action
    public var reference: KeyReference
    public var date: Date
    public init(action: Action, reference: KeyReference, date: Date) {
        self.action = action; self.reference = reference; self.date = date
    }
    public var description: String { "\(action.rawValue) \(reference)" }
}

/// Key events in order, bounded (oldest dropped first). Shared by stores and providers.
public actor KeyAuditLog {
    private var entries: [KeyAuditEvent] = []
    private let capacity: Int
    private let now: @Sendable () -> Date

    public init(capacity: Int = 1000, now: @escaping @Sendable () -> Date = { Date() }) {
        self.capacity = max(1, capacity); self.now = now
    }

    public func record(_ action: KeyAuditEvent.Action, _ reference: KeyReference) {
        entries.append(KeyAuditEvent(action: action, reference: reference, date: now()))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    public func events() -> [KeyAuditEvent] { entries }
}
