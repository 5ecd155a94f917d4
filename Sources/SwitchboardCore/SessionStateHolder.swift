/// A provider that keeps state derived from a session's requests beyond the requests themselves (an
/// on-device engine's prefix cache of prompt keys and values, `GenerationRequest.prefixOwner`).
/// `Session.reset()` asks every registered one to drop what belongs to that session alone.
package protocol SessionStateHolder: Sendable {
    /// Drops what `owner`'s requests left and no other owner's requests use. Returns when it is gone.
    func forgetSession(_ owner: UInt64) async
}
