import Foundation
import SwitchboardCore

/// Reads keys from environment variables (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GEMINI_API_KEY` by
/// default). Read-only: writing the process environment would leak into child processes.
public struct EnvironmentKeyStore: KeyStore {
    public static let defaultVariables: [ProviderID: String] = [
        "openai-compatible": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY",
    ]
    /// Variable per provider, used for every key name of that provider.
    public var variables: [ProviderID: String]
    /// Overrides for specific provider/name pairs.
    public var namedVariables: [KeyReference: String]
    private let environment: [String: String]
    private let audit: KeyAuditLog?

    public init(variables: [ProviderID: String] = EnvironmentKeyStore.defaultVariables,
                namedVariables: [KeyReference: String] = [:],
                environment: [String: String] = ProcessInfo.processInfo.environment, audit: KeyAuditLog? = nil) {
        self.variables = variables; self.namedVariables = namedVariables
        self.environment = environment; self.audit = audit
    }

    public func variable(for reference: KeyReference) -> String? {
        namedVariables[reference] ?? variables[reference.provider]
    }

    public func get(_ reference: KeyReference) async throws -> APIKey? {
        guard let name = variable(for: reference) else { return nil }
        return try APIKey.stored(environment[name], for: reference)
    }

    public func set(_ key: APIKey, for reference: KeyReference) async throws { throw readOnly(reference) }
    public func delete(_ reference: KeyReference) async throws { throw readOnly(reference) }
    public func rotate(_ reference: KeyReference, to newKey: APIKey) async throws { throw readOnly(reference) }

    private func readOnly(_ reference: KeyReference) -> KeyStoreError {
        let name = variable(for: reference) ?? "a variable (none is mapped for \(reference))"
        return .readOnly("set \(name) in the environment of the process instead")
    }
}
