import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keys in one JSON file, `{"<provider>": {"<name>": "<key>"}}`. Writes are atomic (a 0600 temporary
/// file renamed over the old one); a file readable by group or others is refused with
/// `KeyStoreError.insecurePermissions`, which names the path and the `chmod 600` fix.
public actor FileKeyStore: KeyStore {
    public nonisolated let path: String
    private let audit: KeyAuditLog?

    public init(fileURL: URL, audit: KeyAuditLog? = nil) {
        self.path = fileURL.path; self.audit = audit
    }

    public func get(_ reference: KeyReference) async throws -> APIKey? {
        try APIKey.stored(load()[reference.provider.rawValue]?[reference.name], for: reference)
    }

    public func set(_ key: APIKey, for reference: KeyReference) async throws {
        var keys = try load()
        keys[reference.provider.rawValue, default: [:]][reference.name] = key.revealForAuthenticationHeader()
        try save(keys)
        await audit?.record(.stored, reference)
    }

    public func delete(_ reference: KeyReference) async throws {
        var keys = try load()
        guard keys[reference.provider.rawValue]?.removeValue(forKey: reference.name) != nil else {
            throw KeyStoreError.notFound(reference)
        }
        if keys[reference.provider.rawValue]?.isEmpty == true { keys[reference.provider.rawValue] = nil }
        try save(keys)
        await audit?.record(.deleted, reference)
    }

    public func rotate(_ reference: KeyReference, to newKey: APIKey) async throws {
        var keys = try load()
        guard keys[reference.provider.rawValue]?[reference.name] != nil else { throw KeyStoreError.notFound(reference) }
        keys[reference.provider.rawValue, default: [:]][reference.name] = newKey.revealForAuthenticationHeader()
        try save(keys)
        await audit?.record(.rotated, reference)
    }

    private func load() throws -> [String: [String: String]] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return [:] }
            throw KeyStoreError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let mode = Int(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else { throw KeyStoreError.insecurePermissions(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeyStoreError.unreadable(path: path, reason: "the file cannot be opened")
        }
        if data.isEmpty { return [:] }
        do {
            return try JSONDecoder().decode([String: [String: String]].self, from: data)
        } catch {
            throw KeyStoreError.unreadable(path: path, reason: "it is not a JSON object of provider → name → key")
        }
    }

    private func save(_ keys: [String: [String: String]]) throws {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory,
                                                    withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw KeyStoreError.writeFailed(path: path, reason: "cannot create its directory")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do { data = try encoder.encode(keys) } catch {
            throw KeyStoreError.writeFailed(path: path, reason: "encoding failed")
        }
        let temporary = path + ".tmp-\(UUID().uuidString)"
        // Created 0600 from the first byte: never briefly readable by others.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw KeyStoreError.writeFailed(path: path, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, base + offset, buffer.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw KeyStoreError.writeFailed(path: path, reason: reason)
        }
    }
}
