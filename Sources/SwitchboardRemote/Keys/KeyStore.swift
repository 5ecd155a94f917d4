import Foundation
import SwitchboardCore

/// Names one key: the provider it is for and a name (several keys per provider, e.g. for rotation
/// between accounts).
public struct KeyReference: Sendable, Hashable, CustomStringConvertible {
    public var provider: ProviderID
    public var name: String
    public init(_ provider: ProviderID, name: String = "default") { self.provider = provider; self.name = name }
    public var description: String { "\(provider)/\(name)" }
}

/// Where API keys live. Implementations never log or print key material.
public protocol KeyStore: Sendable {
    /// The key, or nil when none is stored.
    func get(_ reference: KeyReference) async throws -> APIKey?
    func set(_ key: APIKey, for reference: KeyReference) async throws
    func delete(_ reference: KeyReference) async throws
    /// Replaces an existing key; throws `KeyStoreError.notFound` when there is none to rotate.
    func rotate(_ reference: KeyReference, to newKey: APIKey) async throws
}

public enum KeyStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound(KeyReference)
    case readOnly(String)
    /// The key file can be read by group or others.
    case insecurePermissions(path: String, mode: Int)
    case unreadable(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case keychain(status: Int32)
    /// The stored value cannot be a key (a line break inside it, say).
    case invalidKey(KeyReference, APIKeyError)

    public var description: String {
        switch self {
        case .notFound(let reference): "no key stored for \(reference)"
        case .invalidKey(let reference, let problem): "the key stored for \(reference) is unusable: \(problem)"
        case .readOnly(let why): "this key store is read-only: \(why)"
        case .insecurePermissions(let path, let mode):
            "refusing to read \(path): it is readable by group or others (mode \(String(mode, radix: 8))); run `chmod 600 \(path)`"
        case .unreadable(let path, let reason): "cannot read the key file \(path): \(reason)"
        case .writeFailed(let path, let reason): "cannot write the key file \(path): \(reason)"
        case .keychain(let status): "keychain operation failed with status \(status)"
        }
    }
}

/// How a provider finds its key on each request (so a rotated key takes effect on the next call).
public enum APICredentials: Sendable {
    /// No authentication (local servers such as llama.cpp or Ollama).
    case none
    case key(APIKey)
    /// Looked up on every request; a missing key is an authentication error.
    case store(any KeyStore, KeyReference)
}

extension APIKey {
    /// A stored value as a key: nil when nothing is stored (empty), a typed error when it is unusable.
    static func stored(_ value: String?, for reference: KeyReference) throws(KeyStoreError) -> APIKey? {
        guard let value else { return nil }
        do { return try APIKey(validating: value) } catch {
            if error == .empty { return nil }
            throw .invalidKey(reference, error)
        }
    }
}
