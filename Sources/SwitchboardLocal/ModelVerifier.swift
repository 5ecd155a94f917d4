import Dispatch
import Foundation
import SwitchboardInference

/// Checks that a model file is the one its configuration names: present, the right architecture, the
/// right SHA-256 (when the configuration has one). Hashes are remembered per (path, size, modification time), so reloading an unchanged file
/// does not hash it again.
public actor ModelVerifier {
    /// Shared so every provider in a process reuses the same verified hashes.
    public static let shared = ModelVerifier()

    struct FileIdentity: Hashable {
        var path: String
        var size: Int
        var modified: Double
    }

    private var knownDigests: [FileIdentity: String] = [:]
    public private(set) var hashesComputed = 0

    public init() {}

    /// `progress` gets 0...1 while the file is hashed (it is not called on a cached verification).
    public func verify(path: String, against configuration: ModelConfiguration,
                       progress: @escaping @Sendable (Double) -> Void = { _ in })
        async throws(LocalModelError) -> VerifiedModelFile {
        let identity = try Self.identity(of: path)
        let file = try Self.open(path)
        let architecture: String
        do { architecture = try file.architecture } catch {
            throw .unreadable(path: path, reason: "no general.architecture in the GGUF metadata (\(error))")
        }
        guard architecture == configuration.architecture else {
            throw .architectureMismatch(expected: configuration.architecture, actual: architecture)
        }
        let declared = (try? file.optionalInt("\(architecture).context_length")) ?? nil
        let contextLength = min(configuration.contextLength, declared.map { max($0, 1) } ?? configuration.contextLength)

        // No expected digest (a file of your own): nothing to hash.
        guard let expected = configuration.sha256 else {
            return VerifiedModelFile(configuration: configuration, path: path, sizeBytes: identity.size,
                                     contextLength: contextLength, fromCache: false)
        }
        let cached = knownDigests[identity]
        let digest: String
        if let cached { digest = cached } else {
            digest = await Self.hashOffExecutor(file, progress: progress)
            knownDigests[identity] = digest
            hashesComputed += 1
        }
        guard digest == expected else { throw .checksumMismatch(expected: expected, actual: digest) }
        return VerifiedModelFile(configuration: configuration, path: path, sizeBytes: identity.size,
                                 contextLength: contextLength, fromCache: cached != nil)
    }

    /// Forgets every remembered hash (tests; or after replacing files in place with the same mtime).
    public func forgetAll() { knownDigests.removeAll() }

    private static func identity(of path: String) throws(LocalModelError) -> FileIdentity {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw .fileNotFound(path: path, hint: LocalModelError.fetchHint)
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw .unreadable(path: path, reason: "not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return FileIdentity(path: path, size: size, modified: modified)
    }

    private static func open(_ path: String) throws(LocalModelError) -> GGUFFile {
        do { return try GGUFFile(contentsOf: path) } catch {
            throw .unreadable(path: path, reason: error.description)
        }
    }

    /// Hashing a 250 MB file takes about a second of CPU: do it on a Dispatch worker, not on the
    /// cooperative pool that runs every actor.
    private static func hashOffExecutor(_ file: GGUFFile, progress: @escaping @Sendable (Double) -> Void) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let bytes = file.rawBytes
                var hasher = SHA256()
                let chunk = 16 << 20
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + chunk)
                    hasher.update(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                    offset = end
                    progress(Double(offset) / Double(bytes.count))
                }
                continuation.resume(returning: SHA256.hex(hasher.finalize()))
            }
        }
    }
}

/// A model file that passed verification against its configuration: safe to hand to the engine.
public struct VerifiedModelFile: Sendable, Hashable {
    public var configuration: ModelConfiguration
    public var path: String
    public var sizeBytes: Int
    /// The context the provider runs with: the configuration's, or the file's when that is smaller.
    public var contextLength: Int
    /// Whether this verification reused an earlier hash of the same unchanged file.
    public var fromCache: Bool
}
