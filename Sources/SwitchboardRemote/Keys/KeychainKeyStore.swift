#if canImport(Security)
import Foundation
import Security

/// Keys in the system keychain as generic passwords: service `<servicePrefix>.<provider>`, account
/// `<name>`. Apple platforms only.
public actor KeychainKeyStore: KeyStore {
    public nonisolated let servicePrefix: String
    private let audit: KeyAuditLog?

    public init(servicePrefix: String = "switchboard", audit: KeyAuditLog? = nil) {
        self.servicePrefix = servicePrefix; self.audit = audit
    }

    private func query(_ reference: KeyReference) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword,
         kSecAttrService as String: "\(servicePrefix).\(reference.provider.rawValue)",
         kSecAttrAccount as String: reference.name]
    }

    public func get(_ reference: KeyReference) async throws -> APIKey? {
        var q = query(reference)
        q[kSecReturnData as String] = true
        q[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(q as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else { throw KeyStoreError.keychain(status: status) }
        return try APIKey.stored(String(decoding: data, as: UTF8.self), for: reference)
    }

    public func set(_ key: APIKey, for reference: KeyReference) async throws {
        try write(key, for: reference)
        await audit?.record(.stored, reference)
    }

    public func delete(_ reference: KeyReference) async throws {
        let status = SecItemDelete(query(reference) as CFDictionary)
        if status == errSecItemNotFound { throw KeyStoreError.notFound(reference) }
        guard status == errSecSuccess else { throw KeyStoreError.keychain(status: status) }
        await audit?.record(.deleted, reference)
    }

    public func rotate(_ reference: KeyReference, to newKey: APIKey) async throws {
        guard try await get(reference) != nil else { throw KeyStoreError.notFound(reference) }
        try write(newKey, for: reference)
        await audit?.record(.rotated, reference)
    }

    private func write(_ key: APIKey, for reference: KeyReference) throws {
        let data = Data(key.revealForAuthenticationHeader().utf8)
        let update = SecItemUpdate(query(reference) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if update == errSecSuccess { return }
        guard update == errSecItemNotFound else { throw KeyStoreError.keychain(status: update) }
        var add = query(reference)
        add[kSecValueData as String] = data
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let status = SecItemAdd(add as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeyStoreError.keychain(status: status) }
    }
}
#endif
