import Foundation
import SwitchboardCore

/// The routing audit trail: one `RoutingAuditRecord` per finished request, never any text. Keeps the
/// most recent `capacity` records for export (`jsonLines()`), and streams new ones to subscribers.
/// Each subscriber's stream is bounded (it keeps the newest `buffer` records if it falls behind) and
/// is finished when the subscriber stops iterating or `finish()` is called.
public actor AuditTrail {
    public let capacity: Int
    private var records: [RoutingAuditRecord] = []
    private var head = 0
    private var subscribers: [UInt64: AsyncStream<RoutingAuditRecord>.Continuation] = [:]
    private var nextSubscriber: UInt64 = 0
    private var finished = false

    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// New records from now on. Ends when the iterating task stops or `finish()` is called.
    public func subscribe(buffer: Int = 1_024) -> AsyncStream<RoutingAuditRecord> {
        let (stream, continuation) = AsyncStream<RoutingAuditRecord>.makeStream(bufferingPolicy: .bufferingNewest(max(1, buffer)))
        guard !finished else { continuation.finish(); return stream }
        let id = nextSubscriber
        nextSubscriber &+= 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
        return stream
    }

    public func record(_ record: RoutingAuditRecord) {
        if records.count < capacity { records.append(record) } else { records[head] = record; head = (head + 1) % capacity }
        for continuation in subscribers.values { continuation.yield(record) }
    }

    /// The kept records, oldest first.
    public func recent() -> [RoutingAuditRecord] { Array(records[head...] + records[..<head]) }

    /// The kept records as JSON lines, oldest first.
    public func jsonLines() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data()
        for record in recent() {
            guard let line = try? encoder.encode(record) else { continue }
            data.append(line)
            data.append(0x0A)
        }
        return data
    }

    /// Ends every subscription; later subscriptions end at once. Records are still kept.
    public func finish() {
        finished = true
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    private func unsubscribe(_ id: UInt64) { subscribers[id] = nil }
}
