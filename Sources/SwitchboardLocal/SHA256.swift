import Foundation

/// Streaming SHA-256 (FIPS 180-4) in pure Swift, so model files are verified the same way on every
/// platform without CryptoKit or a dependency. Feed bytes with `update`, read the digest with `finalize`.
public struct SHA256: Sendable {
    var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// Bytes of an incomplete block carried between `update` calls (at most 63 are kept).
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

    public init() { pending.reserveCapacity(64) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        totalBytes &+= UInt64(remaining)
        if !pending.isEmpty {
            let take = min(64 - pending.count, remaining)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            base += take; remaining -= take
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBytes { compress(blocksAt: $0.baseAddress.unsafelyUnwrapped, count: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = remaining / 64
        if whole > 0 { compress(blocksAt: base, count: whole) }
        let tail = remaining - whole * 64
        if tail > 0 { pending.append(contentsOf: UnsafeRawBufferPointer(start: base + whole * 64, count: tail)) }
    }

    public mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// The 32-byte digest. The hasher is left finished; make a new one for more data.
    public mutating func finalize() -> [UInt8] {
        let bitLength = totalBytes &* 8
        var padding: [UInt8] = [0x80]
        let used = Int(totalBytes % 64)
        padding += repeatElement(0, count: (used < 56 ? 55 - used : 119 - used))
        for shift in stride(from: 56, through: 0, by: -8) { padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let counted = totalBytes
        padding.withUnsafeBytes { update($0) }
        totalBytes = counted
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// Lower-case hex of a digest.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for byte in digest { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Hex digest of a whole byte collection.
    public static func hexDigest(of bytes: some Collection<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hex(hasher.finalize())
    }
}

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
