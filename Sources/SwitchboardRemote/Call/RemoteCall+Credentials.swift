import SwitchboardCore

extension RemoteCall {
    func resolveKey() async throws -> APIKey? {
        switch credentials {
        case .none:
            guard !wire.requiresKey else {
                throw ProviderError.authentication("no API key is configured for \(id)")
            }
            return nil
        case .key(let key):
            await settings.audit?.record(.used, KeyReference(id))
            return key
        case .store(let store, let reference):
            let key: APIKey?
            do { key = try await store.get(reference) } catch let error as KeyStoreError {
                throw ProviderError.authentication(error.description)
            }
            guard let key else {
                await settings.audit?.record(.missing, reference)
                if wire.requiresKey { throw ProviderError.authentication("no API key is stored for \(reference)") }
                return nil
            }
            await settings.audit?.record(.used, reference)
            return key
        }
    }

    /// Unavailable when a required key is missing; the network is not probed.
    func availability() async -> ProviderAvailability {
        switch credentials {
        case .none:
            return wire.requiresKey ? .unavailable(reason: "no API key is configured for \(id)") : .ready
        case .key:
            return .ready
        case .store(let store, let reference):
            guard wire.requiresKey else { return .ready }
            do {
                return try await store.get(reference) == nil ? .unavailable(reason: "no API key is stored for \(reference)") : .ready
            } catch {
                return .unavailable(reason: "\(error)")
            }
        }
    }
}
