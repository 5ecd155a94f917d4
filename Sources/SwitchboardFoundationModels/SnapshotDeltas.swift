/// The framework streams cumulative snapshots (each the whole answer so far); Switchboard streams
/// tokens (each only what is new). This turns one into the other, a decision per snapshot:
///
/// - a snapshot that extends what was sent yields the new part (empty: nothing);
/// - a snapshot that rewrites text already sent cannot be taken back from the caller: it is a
///   `rewrite`, and the provider fails the call with a retryable `malformedResponse`. The runtime then
///   resumes the answer elsewhere from what the caller already has (`answerPrefix`), so no text is
///   lost or repeated; nothing of the rewritten snapshot is sent.
/// - a snapshot that is shorter but a prefix of what was sent (the framework trimmed a trailing
///   piece) is also a rewrite: the caller holds text the answer no longer has.
///
/// Compared by Unicode scalars, not `Character`s: a combining mark appended to the last character
/// changes that `Character` but only extends the scalars, and must come out as a delta.
package struct SnapshotDeltas: Sendable, Hashable {
    package enum Step: Sendable, Hashable {
        case delta(String)
        case rewrite(sentLength: Int, divergesAt: Int)
    }

    /// Everything sent so far.
    package private(set) var sent = ""
    private var sentScalars = 0

    package init() {}

    package mutating func next(_ snapshot: String) -> Step {
        let scalars = snapshot.unicodeScalars
        var common = 0
        var index = scalars.startIndex
        for scalar in sent.unicodeScalars {
            guard index != scalars.endIndex, scalars[index] == scalar else {
                return .rewrite(sentLength: sentScalars, divergesAt: common)
            }
            common += 1
            index = scalars.index(after: index)
        }
        let delta = String(scalars[index...])
        sent.unicodeScalars.append(contentsOf: delta.unicodeScalars)
        sentScalars += delta.unicodeScalars.count
        return .delta(delta)
    }
}
