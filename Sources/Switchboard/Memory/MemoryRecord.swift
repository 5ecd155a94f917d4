import Foundation

/// One remembered text: what it says, its privacy level, free-form metadata, and its unit vector.
public struct MemoryEntry: Sendable, Hashable, Identifiable {
    public let id: UUID
    public let text: String
    public let metadata: [String: String]
    public let privacy: PrivacyLevel
    public let vector: [Float]
}

/// A search result: the entry and its cosine similarity to the query.
public struct MemoryHit: Sendable, Hashable {
    public let entry: MemoryEntry
    public let score: Float
}

/// The log's record codec: `magic, length, crc32(payload), payload`, little-endian. A payload is an
/// add (id, privacy, text, metadata, vector) or a delete (id). A record is accepted only whole and
/// with its checksum, so a write torn by a crash is recognized and dropped on reopen.
enum MemoryRecord: Equatable {
    case add(MemoryEntry)
    case delete(UUID)

    static let magic: UInt32 = 0x4D45_4D31  // "1MEM"
    static let headerBytes = 12
    /// Far above any real entry; a larger declared length means a damaged record.
    static let maximumPayload = 64 << 20

    func encoded() -> [UInt8] {
        var payload: [UInt8] = []
        switch self {
        case .add(let e):
            payload.append(1)
            payload += Self.bytes(of: e.id)
            payload.append(UInt8(e.privacy.rawValue))
            Self.put(e.text, into: &payload)
            Self.put(UInt32(e.metadata.count), into: &payload)
            for (key, value) in e.metadata.sorted(by: { $0.key < $1.key }) { Self.put(key, into: &payload); Self.put(value, into: &payload) }
            Self.put(UInt32(e.vector.count), into: &payload)
            for v in e.vector { Self.put(v.bitPattern, into: &payload) }
        case .delete(let id):
            payload.append(2)
            payload += Self.bytes(of: id)
        }
        var record: [UInt8] = []
        Self.put(Self.magic, into: &record)
        Self.put(UInt32(payload.count), into: &record)
        Self.put(CRC32.checksum(payload), into: &record)
        return record + payload
    }

    /// The record at `offset` and the offset after it, or nil when the bytes there are not one whole,
    /// intact record (end of file, torn write, damage).
    static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (MemoryRecord, Int)? {
        guard bytes.count - offset >= headerBytes else { return nil }
        var reader = Reader(bytes: bytes, position: offset)
        guard let magic = reader.u32(), magic == Self.magic, let length32 = reader.u32(), let crc = reader.u32() else { return nil }
        let length = Int(length32)
        guard length <= maximumPayload, length <= bytes.count - reader.position else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[reader.position..<(reader.position + length)])
        guard CRC32.checksum(payload) == crc else { return nil }
        var p = Reader(bytes: payload, position: 0)
        guard let record = p.record(), p.position == length else { return nil }
        return (record, reader.position + length)
    }

    private static func bytes(of id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }
    private static func put<T: FixedWidthInteger>(_ value: T, into out: inout [UInt8]) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
    private static func put(_ text: String, into out: inout [UInt8]) { put(UInt32(text.utf8.count), into: &out); out += text.utf8 }

    /// A bounds-checked little-endian reader: every read returns nil past the end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position: Int

        mutating func u8() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func u32() -> UInt32? {
            guard bytes.count - position >= 4 else { return nil }
            defer { position += 4 }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        }

        mutating func string() -> String? {
            guard let n = u32().map(Int.init), n <= bytes.count - position else { return nil }
            defer { position += n }
            return String(validating: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + n)]), as: UTF8.self)
        }

        mutating func id() -> UUID? {
            guard bytes.count - position >= 16 else { return nil }
            var raw = UUID().uuid
            withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + 16)])) }
            position += 16
            return UUID(uuid: raw)
        }

        mutating func record() -> MemoryRecord? {
            switch u8() {
            case 1:
                guard let id = id(), let level = u8().flatMap({ PrivacyLevel(rawValue: Int($0)) }), let text = string(),
                      let pairs = u32(), Int(pairs) <= (bytes.count - position) / 8 else { return nil }
                var metadata: [String: String] = [:]
                for _ in 0..<pairs {
                    guard let key = string(), let value = string() else { return nil }
                    metadata[key] = value
                }
                guard let count = u32().map(Int.init), count <= (bytes.count - position) / 4 else { return nil }
                var vector: [Float] = []
                vector.reserveCapacity(count)
                for _ in 0..<count {
                    guard let bits = u32() else { return nil }
                    vector.append(Float(bitPattern: bits))
                }
                return .add(MemoryEntry(id: id, text: text, metadata: metadata, privacy: level, vector: vector))
            case 2:
                return id().map { .delete($0) }
            default:
                return nil
            }
        }
    }
}

/// CRC-32 (IEEE 802.3, reflected 0xEDB88320), table-driven.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { checksum($0) } }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
