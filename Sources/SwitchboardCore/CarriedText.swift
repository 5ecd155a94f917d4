/// How much of a half-streamed answer the provider that takes over continues from (`resumed`).
/// A server can stream far more text than another provider's context holds (a megabyte "token"), so
/// the text carried over is capped by what the next provider can take.
public enum CarriedText: Sendable, Hashable {
    /// All the text so far.
    case whole
    /// Only its last `keptBytes` UTF-8 bytes: the rest would not fit the next provider's context. The
    /// caller already has all of it; the answer continues from its end as before.
    case trimmed(keptBytes: Int, droppedBytes: Int)
    /// None of it fits: the next provider starts the answer over. The caller should discard the text
    /// received so far; the completed response holds only the new answer.
    case restarted(droppedBytes: Int)
}
