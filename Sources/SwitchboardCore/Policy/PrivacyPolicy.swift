/// Where a request may go, by its privacy level. A hard rule checked before scoring and again at the
/// moment of dispatch: privacy is never traded against speed or cost.
public struct PrivacyPolicy: Sendable, Hashable {
    /// Lets `.personal` requests (email addresses, phone numbers, personal memory) go to remote
    /// providers. Off by default; `.sensitive` requests never leave the device whatever this says.
    public var allowPersonalRemote: Bool
    /// Lets `.personal` requests go to Private Cloud Compute (Apple's servers that keep nothing and
    /// that no one can read), while third-party clouds stay closed to them. Off by default; implied by
    /// `allowPersonalRemote`. `.sensitive` requests stay on the device whatever this says.
    public var allowPersonalPrivateCloudCompute: Bool

    public init(allowPersonalRemote: Bool = false, allowPersonalPrivateCloudCompute: Bool = false) {
        self.allowPersonalRemote = allowPersonalRemote; self.allowPersonalPrivateCloudCompute = allowPersonalPrivateCloudCompute
    }

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

    /// Whether a request at `level` may be handed to a provider at `locality`: anything on the device;
    /// public and contextual requests anywhere; personal ones to Private Cloud Compute when either
    /// switch allows it and to a third-party cloud only with `allowPersonalRemote`; sensitive ones
    /// nowhere but the device.
    public func mayDispatch(_ level: PrivacyLevel, to locality: ProviderLocality) -> Bool {
        switch locality {
        case .device: true
        case .thirdPartyCloud: allowsRemote(level)
        case .privateCloudCompute: allowsRemote(level) || (level == .personal && allowPersonalPrivateCloudCompute)
        }
    }
}
