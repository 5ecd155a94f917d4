/// The parsed header of a GGUF file: everything except the tensor data, which stays in the mapping.
struct GGUFHeader: Sendable {
    var version: UInt32
    var metadata: [String: GGUFValue]
    var metadataOrder: [String]
    var tensors: [GGUFTensorInfo]
    var alignment: Int
    var dataOffset: Int
}

/// Parses a GGUF header from raw bytes. Shared by the mmap and in-memory paths, so fuzzing the
/// in-memory path exercises exactly the code that reads real files.
enum GGUFParser {
    static let magic: UInt32 = 0x4655_4747  // "GGUF" read as little-endian u32
    static let defaultAlignment = 32
    /// Smallest possible encoded KV pair (empty-ish key length + type + 1-byte value) and tensor info.
    static let minimumKVBytes = 8 + 1 + 4 + 1
    static let minimumTensorInfoBytes = 8 + 1 + 4 + 8 + 4 + 8

    static func parse(_ bytes: UnsafeRawBufferPointer) throws(GGUFError) -> GGUFHeader {
        var cursor = GGUFCursor(bytes: bytes)
        guard bytes.count >= 4 else { throw .badMagic }
        guard try cursor.read(UInt32.self) == magic else { throw .badMagic }
        let version = try cursor.read(UInt32.self)
        guard version == 2 || version == 3 else { throw .unsupportedVersion(version) }
        let tensorCount = try cursor.readCount(limit: cursor.remaining / minimumTensorInfoBytes, what: "tensor count")
        let kvCount = try cursor.readCount(limit: cursor.remaining / minimumKVBytes, what: "metadata entry count")

        var metadata: [String: GGUFValue] = [:]
        var order: [String] = []
        metadata.reserveCapacity(kvCount)
        order.reserveCapacity(kvCount)
        for _ in 0..<kvCount {
            let keyOffset = cursor.position
            let key = try cursor.readString()
            guard !key.isEmpty else { throw .emptyKey(at: keyOffset) }
            guard metadata[key] == nil else { throw .duplicateKey(key) }
            metadata[key] = try readValue(&cursor, key: key)
            order.append(key)
        }

        let alignment = try alignment(in: metadata)
        var infos: [RawTensorInfo] = []
        infos.reserveCapacity(tensorCount)
        var names = Set<String>()
        for _ in 0..<tensorCount {
            let info = try readTensorInfo(&cursor)
            guard names.insert(info.name).inserted else { throw .duplicateTensor(info.name) }
            infos.append(info)
        }

        let (padded, overflow) = cursor.position.addingReportingOverflow(alignment - 1)
        guard !overflow else { throw .tooLarge(what: "header") }
        let dataOffset = padded & ~(alignment - 1)
        var tensors: [GGUFTensorInfo] = []
        tensors.reserveCapacity(infos.count)
        for info in infos {
            tensors.append(try locate(info, dataOffset: dataOffset, alignment: alignment, fileSize: bytes.count))
        }
        return GGUFHeader(version: version, metadata: metadata, metadataOrder: order, tensors: tensors,
                          alignment: alignment, dataOffset: dataOffset)
    }

    private static func readValue(_ cursor: inout GGUFCursor, key: String) throws(GGUFError) -> GGUFValue {
        let rawType = try cursor.read(UInt32.self)
        guard let type = GGUFValueType(rawValue: rawType) else { throw .unknownValueType(rawType) }
        switch type {
        case .uint8: return .uint8(try cursor.read(UInt8.self))
        case .int8: return .int8(try cursor.read(Int8.self))
        case .uint16: return .uint16(try cursor.read(UInt16.self))
        case .int16: return .int16(try cursor.read(Int16.self))
        case .uint32: return .uint32(try cursor.read(UInt32.self))
        case .int32: return .int32(try cursor.read(Int32.self))
        case .float32: return .float32(try cursor.readFloat())
        case .bool: return .bool(try cursor.read(UInt8.self) != 0)
        case .string: return .string(try cursor.readString())
        case .uint64: return .uint64(try cursor.read(UInt64.self))
        case .int64: return .int64(try cursor.read(Int64.self))
        case .float64: return .float64(try cursor.readDouble())
        case .array: return .array(try readArray(&cursor, key: key))
        }
    }

    private static func readArray(_ cursor: inout GGUFCursor, key: String) throws(GGUFError) -> GGUFArray {
        let rawType = try cursor.read(UInt32.self)
        guard let type = GGUFValueType(rawValue: rawType) else { throw .unknownValueType(rawType) }
        guard type != .array else { throw .nestedArray(key: key) }
        let count = try cursor.readCount(limit: GGUFCursor.maximumArrayCount, what: "array length of '\(key)'")
        // Reject counts the remaining bytes cannot hold before allocating anything.
        try cursor.require(count * type.minimumEncodedSize)
        switch type {
        case .uint8: return .uint8(try cursor.readArray(of: UInt8.self, count: count))
        case .int8: return .int8(try cursor.readArray(of: Int8.self, count: count))
        case .uint16: return .uint16(try cursor.readArray(of: UInt16.self, count: count))
        case .int16: return .int16(try cursor.readArray(of: Int16.self, count: count))
        case .uint32: return .uint32(try cursor.readArray(of: UInt32.self, count: count))
        case .int32: return .int32(try cursor.readArray(of: Int32.self, count: count))
        case .float32: return .float32(try cursor.readArray(of: Float.self, count: count))
        case .uint64: return .uint64(try cursor.readArray(of: UInt64.self, count: count))
        case .int64: return .int64(try cursor.readArray(of: Int64.self, count: count))
        case .float64: return .float64(try cursor.readArray(of: Double.self, count: count))
        case .bool: return .bool(try cursor.readArray(of: UInt8.self, count: count).map { $0 != 0 })
        case .string:
            var strings: [String] = []
            strings.reserveCapacity(count)
            for _ in 0..<count { strings.append(try cursor.readString()) }
            return .string(strings)
        case .array: throw .nestedArray(key: key)
        }
    }

    private static func alignment(in metadata: [String: GGUFValue]) throws(GGUFError) -> Int {
        guard let value = metadata["general.alignment"] else { return defaultAlignment }
        guard case .uint32(let raw) = value else { throw .invalidAlignment("stored as \(value.type), not uint32") }
        guard raw != 0, raw & (raw - 1) == 0 else { throw .invalidAlignment("\(raw) is not a power of two") }
        return Int(raw)
    }
}
