@testable import SwitchboardInference

/// A test-only GGUF writer: builds byte images of arbitrary (also deliberately invalid) files and
/// records where each u64 length/count field sits, so the fuzz test can corrupt exactly those.
struct GGUFTestWriter {
    struct Tensor {
        var name: String
        var dimensions: [UInt64]
        var type: UInt32
        var offset: UInt64? = nil  // nil: next aligned offset after the previous tensor
        var byteCount: Int = 0
        /// The tensor's bytes (default: a fixed pattern of `byteCount` bytes).
        var data: [UInt8]? = nil
    }

    var magic: UInt32 = 0x4655_4747
    var version: UInt32 = 3
    var metadata: [(String, GGUFValue)] = []
    var tensors: [Tensor] = []
    var alignment = 32
    var tensorCountOverride: UInt64? = nil
    var kvCountOverride: UInt64? = nil

    private(set) var bytes: [UInt8] = []
    private(set) var lengthPositions: [Int] = []

    mutating func build() -> [UInt8] {
        bytes = []
        lengthPositions = []
        put(magic)
        put(version)
        putLength(tensorCountOverride ?? UInt64(tensors.count))
        putLength(kvCountOverride ?? UInt64(metadata.count))
        for (key, value) in metadata {
            putString(key)
            put(value.type.rawValue)
            putValue(value)
        }
        var next: UInt64 = 0
        var offsets: [UInt64] = []
        for tensor in tensors {
            putString(tensor.name)
            put(UInt32(tensor.dimensions.count))
            for dimension in tensor.dimensions { putLength(dimension) }
            put(tensor.type)
            let offset = tensor.offset ?? next
            offsets.append(offset)
            put(offset)
            next = offset &+ UInt64((tensor.byteCount + alignment - 1) / alignment * alignment)
        }
        if !tensors.isEmpty {
            while bytes.count % alignment != 0 { bytes.append(0) }
            let dataStart = bytes.count
            for (tensor, offset) in zip(tensors, offsets) {
                // Deliberately bogus offsets get no data; the reader must reject them. Computed offsets
                // (a real model's tensors laid end to end) always do.
                guard tensor.offset == nil || offset < 1 << 20 else { continue }
                let start = dataStart + Int(offset)
                if bytes.count < start { bytes += [UInt8](repeating: 0, count: start - bytes.count) }
                if let data = tensor.data {
                    bytes += data
                } else {
                    for i in 0..<tensor.byteCount { bytes.append(UInt8(truncatingIfNeeded: i &* 31 &+ 7)) }
                }
            }
            while bytes.count % alignment != 0 { bytes.append(0) }
        }
        return bytes
    }

    private mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private mutating func putLength(_ value: UInt64) {
        lengthPositions.append(bytes.count)
        put(value)
    }

    private mutating func putString(_ string: String) {
        putLength(UInt64(string.utf8.count))
        bytes += string.utf8
    }

    private mutating func putValue(_ value: GGUFValue) {
        switch value {
        case .uint8(let v): put(v)
        case .int8(let v): put(v)
        case .uint16(let v): put(v)
        case .int16(let v): put(v)
        case .uint32(let v): put(v)
        case .int32(let v): put(v)
        case .float32(let v): put(v.bitPattern)
        case .bool(let v): put(UInt8(v ? 1 : 0))
        case .string(let v): putString(v)
        case .uint64(let v): put(v)
        case .int64(let v): put(v)
        case .float64(let v): put(v.bitPattern)
        case .array(let array): putArray(array)
        }
    }

    private mutating func putArray(_ array: GGUFArray) {
        put(array.elementType.rawValue)
        putLength(UInt64(array.count))
        switch array {
        case .uint8(let a): for v in a { put(v) }
        case .int8(let a): for v in a { put(v) }
        case .uint16(let a): for v in a { put(v) }
        case .int16(let a): for v in a { put(v) }
        case .uint32(let a): for v in a { put(v) }
        case .int32(let a): for v in a { put(v) }
        case .float32(let a): for v in a { put(v.bitPattern) }
        case .bool(let a): for v in a { put(UInt8(v ? 1 : 0)) }
        case .string(let a): for v in a { putString(v) }
        case .uint64(let a): for v in a { put(v) }
        case .int64(let a): for v in a { put(v) }
        case .float64(let a): for v in a { put(v.bitPattern) }
        }
    }
}
