import Foundation
import SwitchboardCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One remembered text as stored: its vector, its privacy level and the app's metadata.
struct StoredMemory: Sendable, Hashable {
    var id: UInt64
    var privacy: PrivacyLevel
    var created: Double
    var text: String
    var metadata: [String: String]
    var vector: [Float]
}

/// The memory store's file: a header, then records appended with one `write` each and never rewritten.
///
/// Why this shape: a process killed mid-write (`kill -9`, a crash, a phone's watchdog) leaves at most one
/// partial record, at the end; every record carries its own length and CRC-32, so reopening finds the
/// last whole record and cuts the tail there, and earlier records are never touched again. A record
/// damaged in the middle of the file (a bad sector, a stray write) is skipped by searching for the next
/// record that verifies, so one bad record costs one entry, not the rest of the file.
///
/// Layout, little-endian:
/// - header: `SBMEMLOG` (8 bytes), version `UInt32` (1), dimension `UInt32`, model id (`UInt16` length +
///   UTF-8), CRC-32 of everything before it (`UInt32`).
/// - record: magic `UInt32` (`0x314D4253`), kind `UInt8` (1 add, 2 delete), payload length `UInt32`,
///   CRC-32 of kind, length and payload (`UInt32`), payload.
/// - add payload: id `UInt64`, privacy `UInt8`, created `Float64`, text (`UInt32` length + UTF-8),
///   metadata (`UInt16` count, then per pair `UInt16` key length + key, `UInt32` value length + value),
///   vector (`dimension` × `Float32`). Delete payload: id `UInt64`.
final class MemoryLog {
    enum Record: Sendable, Hashable {
        case add(StoredMemory)
        case delete(UInt64)
    }

    /// What reopening found and repaired.
    struct Recovery: Sendable, Hashable {
        var records = 0
        /// Bytes of a partial record cut from the end (a write in flight when the process died).
        var truncatedTailBytes = 0
        /// Bytes skipped in the middle of the file because they did not verify.
        var skippedBytes = 0
    }

    static let fileMagic = Array("SBMEMLOG".utf8)
    static let recordMagic: UInt32 = 0x314D_4253
    static let recordHeaderBytes = 13
    /// The largest payload a record may claim: a length past it is damage, not data.
    static let maxPayloadBytes = 16 << 20

    let dimension: Int
    let modelID: String
    private let descriptor: Int32

    /// Opens (or creates) the file, verifies every record and cuts a partial tail.
    static func open(at url: URL, dimension: Int, modelID: String) throws(MemoryStoreError) -> (MemoryLog, [Record], Recovery) {
        let path = url.path
        let fd = openFile(path)
        guard fd >= 0 else { throw .io("cannot open the memory file (errno \(errno))") }
        var bytes: [UInt8]
        do { bytes = try readAll(fd) } catch { _ = close(fd); throw error }
        var recovery = Recovery()
        var records: [Record] = []
        if bytes.isEmpty {
            let header = encodeHeader(dimension: dimension, modelID: modelID)
            do { try writeAll(fd, header) } catch { _ = close(fd); throw error }
        } else {
            let headerEnd: Int
            do { headerEnd = try checkHeader(bytes, dimension: dimension, modelID: modelID) } catch { _ = close(fd); throw error }
            let (found, end, skipped) = scan(bytes, from: headerEnd, dimension: dimension)
            records = found
            recovery.records = found.count
            recovery.skippedBytes = skipped
            if end < bytes.count {
                recovery.truncatedTailBytes = bytes.count - end
                guard ftruncate(fd, off_t(end)) == 0 else { _ = close(fd); throw .io("cannot cut the partial record (errno \(errno))") }
            }
        }
        guard lseek(fd, 0, SEEK_END) >= 0 else { _ = close(fd); throw .io("cannot seek (errno \(errno))") }
        return (MemoryLog(dimension: dimension, modelID: modelID, descriptor: fd), records, recovery)
    }

    private init(dimension: Int, modelID: String, descriptor: Int32) {
        self.dimension = dimension; self.modelID = modelID; self.descriptor = descriptor
    }

    deinit { _ = close(descriptor) }

    /// Appends the records with one `write` (so a batch is whole or ends in one partial record), then
    /// `fsync`s when asked. Returns once the bytes are in the kernel: a killed process keeps them.
    func append(_ records: [Record], sync: Bool) throws(MemoryStoreError) {
        var out: [UInt8] = []
        for record in records { Self.encode(record, dimension: dimension, into: &out) }
        try Self.writeAll(descriptor, out)
        if sync, fsync(descriptor) != 0 { throw .io("fsync failed (errno \(errno))") }
    }

    // MARK: Encoding

    static func encodeHeader(dimension: Int, modelID: String) -> [UInt8] {
        var out = fileMagic
        put(UInt32(1), &out)
        put(UInt32(clamping: dimension), &out)
        let id = Array(modelID.utf8.prefix(Int(UInt16.max)))
        put(UInt16(id.count), &out)
        out += id
        put(CRC32.checksum(out[...]), &out)
        return out
    }

    static func encode(_ record: Record, dimension: Int, into out: inout [UInt8]) {
        var payload: [UInt8] = []
        let kind: UInt8
        switch record {
        case .delete(let id):
            kind = 2
            put(id, &payload)
        case .add(let memory):
            kind = 1
            put(memory.id, &payload)
            payload.append(UInt8(memory.privacy.rawValue))
            put(memory.created.bitPattern, &payload)
            let text = Array(memory.text.utf8)
            put(UInt32(text.count), &payload)
            payload += text
            let pairs = memory.metadata.sorted { $0.key < $1.key }
            put(UInt16(pairs.count), &payload)
            for (key, value) in pairs {
                let k = Array(key.utf8), v = Array(value.utf8)
                put(UInt16(k.count), &payload); payload += k
                put(UInt32(v.count), &payload); payload += v
            }
            for index in 0..<dimension { put(memory.vector[index].bitPattern, &payload) }
        }
        var framed: [UInt8] = [kind]
        put(UInt32(payload.count), &framed)
        framed += payload
        put(recordMagic, &out)
        out.append(kind)
        put(UInt32(payload.count), &out)
        put(CRC32.checksum(framed[...]), &out)
        out += payload
    }

    private static func put<T: FixedWidthInteger>(_ value: T, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    // MARK: Decoding

    private static func checkHeader(_ bytes: [UInt8], dimension: Int, modelID: String) throws(MemoryStoreError) -> Int {
        var reader = ByteReader(bytes, at: 0)
        guard let magic = reader.bytes(fileMagic.count), magic.elementsEqual(fileMagic) else { throw .notAMemoryFile }
        guard let version = reader.u32(), version == 1 else { throw .notAMemoryFile }
        guard let storedDimension = reader.u32(), let idLength = reader.u16(),
              let idBytes = reader.bytes(Int(idLength)), let stored = reader.u32() else { throw .notAMemoryFile }
        let end = reader.offset
        guard CRC32.checksum(bytes[0..<(end - 4)]) == stored else { throw .notAMemoryFile }
        let storedID = String(decoding: idBytes, as: UTF8.self)
        guard Int(storedDimension) == dimension, storedID == modelID else {
            throw .embedderMismatch(stored: storedID, storedDimension: Int(storedDimension))
        }
        return end
    }

    /// Every record that verifies, the end of the last one, and the bytes skipped before it.
    static func scan(_ bytes: [UInt8], from start: Int, dimension: Int) -> ([Record], end: Int, skipped: Int) {
        var records: [Record] = []
        var offset = start
        var skipped = 0
        while offset < bytes.count {
            if let (record, next) = decodeRecord(bytes, at: offset, dimension: dimension) {
                records.append(record)
                offset = next
                continue
            }
            // Damage: look for the next record that verifies. None means a partial tail, which is cut.
            guard let resume = nextValidRecord(bytes, after: offset, dimension: dimension) else { break }
            skipped += resume - offset
            offset = resume
        }
        return (records, offset, skipped)
    }

    private static func nextValidRecord(_ bytes: [UInt8], after offset: Int, dimension: Int) -> Int? {
        var candidate = offset + 1
        let magic = withUnsafeBytes(of: recordMagic.littleEndian) { Array($0) }
        while candidate + recordHeaderBytes <= bytes.count {
            if bytes[candidate] == magic[0], bytes[candidate + 1] == magic[1], bytes[candidate + 2] == magic[2],
               bytes[candidate + 3] == magic[3], decodeRecord(bytes, at: candidate, dimension: dimension) != nil {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    private static func decodeRecord(_ bytes: [UInt8], at offset: Int, dimension: Int) -> (Record, Int)? {
        var reader = ByteReader(bytes, at: offset)
        guard let magic = reader.u32(), magic == recordMagic, let kind = reader.u8(), let length = reader.u32(),
              let crc = reader.u32(), Int(length) <= maxPayloadBytes, Int(length) <= reader.remaining else { return nil }
        let payloadStart = reader.offset
        let payloadEnd = payloadStart + Int(length)
        guard CRC32.checksum(bytes[(offset + 4)..<(offset + 9)], bytes[payloadStart..<payloadEnd]) == crc else { return nil }
        var body = ByteReader(bytes, at: payloadStart, end: payloadEnd)
        switch kind {
        case 2:
            guard let id = body.u64(), body.remaining == 0 else { return nil }
            return (.delete(id), payloadEnd)
        case 1:
            guard let id = body.u64(), let privacyByte = body.u8(), let privacy = PrivacyLevel(rawValue: Int(privacyByte)),
                  let created = body.u64(), let textLength = body.u32(), let text = body.bytes(Int(textLength)),
                  let pairCount = body.u16() else { return nil }
            var metadata: [String: String] = [:]
            for _ in 0..<pairCount {
                guard let keyLength = body.u16(), let key = body.bytes(Int(keyLength)), let valueLength = body.u32(),
                      let value = body.bytes(Int(valueLength)) else { return nil }
                metadata[String(decoding: key, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
            }
            guard body.remaining == dimension * 4 else { return nil }
            guard let raw = body.bytes(dimension * 4) else { return nil }
            let vector = raw.withUnsafeBytes { raw in
                (0..<dimension).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
            let memory = StoredMemory(id: id, privacy: privacy, created: Double(bitPattern: created),
                                      text: String(decoding: text, as: UTF8.self), metadata: metadata, vector: vector)
            return (.add(memory), payloadEnd)
        default:
            return nil
        }
    }

    // MARK: File I/O

    private static func readAll(_ fd: Int32) throws(MemoryStoreError) -> [UInt8] {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .io("cannot stat the memory file (errno \(errno))") }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw .io("cannot read the memory file (errno \(errno))") }
            done += got
        }
        return bytes
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(MemoryStoreError) {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { throw .io("cannot write the memory file (errno \(errno))") }
            done += wrote
        }
    }
}

/// `open(2)` for reading and appending, created with owner-only permissions (memories are private).
private func openFile(_ path: String) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, O_RDWR | O_CREAT, 0o600)
    #else
    Darwin.open(path, O_RDWR | O_CREAT, 0o600)
    #endif
}

/// Bounds-checked little-endian reads: a length from the file never reads past its end.
private struct ByteReader {
    let bytes: [UInt8]
    var offset: Int
    let end: Int
    init(_ bytes: [UInt8], at offset: Int, end: Int? = nil) { self.bytes = bytes; self.offset = offset; self.end = end ?? bytes.count }
    var remaining: Int { end - offset }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }
    mutating func u8() -> UInt8? { bytes(1)?.first }
    mutating func u16() -> UInt16? { integer(UInt16.self) }
    mutating func u32() -> UInt32? { integer(UInt32.self) }
    mutating func u64() -> UInt64? { integer(UInt64.self) }
    private mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard let slice = bytes(MemoryLayout<T>.size) else { return nil }
        var value: T = 0
        for (shift, byte) in slice.enumerated() { value |= T(byte) << (shift * 8) }
        return value
    }
}

/// CRC-32 (IEEE 802.3, reflected, as zlib's), by table.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    static func checksum(_ parts: ArraySlice<UInt8>...) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for part in parts {
                part.withUnsafeBufferPointer { bytes in
                    for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
                }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
