import Foundation

extension SHA256 {
    /// Hex digest of a file, read in large chunks so a 250 MB model hashes in about a second (release).
    /// `progress` gets the fraction done after each chunk.
    public static func hexDigest(ofFileAt path: String, chunkSize: Int = 8 << 20,
                                 progress: (Double) -> Void = { _ in }) throws(LocalModelError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .fileNotFound(path: path, hint: LocalModelError.fetchHint)
        }
        defer { try? handle.close() }
        let total = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var hasher = SHA256()
        var done = 0
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: chunkSize) ?? Data() } catch {
                throw .unreadable(path: path, reason: error.localizedDescription)
            }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { hasher.update($0) }
            done += chunk.count
            if total > 0 { progress(min(1, Double(done) / Double(total))) }
        }
        return hex(hasher.finalize())
    }
}
