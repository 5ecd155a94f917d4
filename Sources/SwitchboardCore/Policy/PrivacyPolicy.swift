/// Where a request may go, by its privacy level. A hard rule checked before scoring and again at the
/// moment of dispatch: privacy is never traded against speed or cost.
public struct PrivacyPolicy: Sendable, Hashable {
    /// Lets `.personal` requests (email addresses, phone numbers, personal memory) go to remote
    /// providers. Off by default; `.sensitive` requests never leave the device whatever this says.
    public var allowPersonalRemote: Bool

    public init(allowPersonalRemote: Bool = false) { self.allowPersonalRemote = allowPersonalRemote }

    /// Whether a request at `level` may be sent off the device.
    public func allowsRemote(_ level: PrivacyLevel) -> Bool {
        switch level {
        case .public, .contextual: true
        case .personal: allowPersonalRemote
        case .sensitive: false
        }
    }

    /// Whether a request at `level` may be handed to a provider that is (or is not) on this device.
    public func mayDispatch(_ level: PrivacyLevel, onDevice isOnDevice: Bool) -> Bool {
        isOnDevice || allowsRemote(level)
    }
}
