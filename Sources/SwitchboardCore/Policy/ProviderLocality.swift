/// Where a provider runs, as the privacy policy tells places apart: this device; Apple's Private
/// Cloud Compute (off the device, on servers built so that no one, Apple included, can read or keep a
/// request, with their software open to outside inspection); or any other cloud, whose operator
/// can read what it is sent.
public enum ProviderLocality: String, Sendable, Hashable, Codable, CaseIterable {
    case device
    case privateCloudCompute
    case thirdPartyCloud
}
