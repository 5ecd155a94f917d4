/// The coordinator's bookkeeping: every accepted request ends exactly once, as completed, failed or
/// cancelled, so `accepted == completed + failed + cancelled + inProgress` always holds.
public struct RequestCounts: Sendable, Hashable, CustomStringConvertible {
    public internal(set) var accepted = 0
    public internal(set) var completed = 0
    public internal(set) var failed = 0
    public internal(set) var cancelled = 0
    /// Completed requests served from the cache.
    public internal(set) var cacheHits = 0

    public init() {}

    public var finished: Int { completed + failed + cancelled }
    public var inProgress: Int { accepted - finished }

    public var description: String {
        "accepted \(accepted) = completed \(completed) + failed \(failed) + cancelled \(cancelled)"
            + (inProgress == 0 ? "" : " + in progress \(inProgress)")
    }
}
