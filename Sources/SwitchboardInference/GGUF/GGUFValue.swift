/// The type tag of a GGUF metadata value (`enum gguf_type`).
public enum GGUFValueType: UInt32, Sendable, CaseIterable {
    case uint8 = 0, int8 = 1, uint16 = 2, int16 = 3, uint32 = 4, int32 = 5, float32 = 6, bool = 7
    case string = 8, array = 9, uint64 = 10, int64 = 11, float64 = 12

    /// Smallest encoded size of one value of this type; used to reject counts the file cannot hold.
    var minimumEncodedSize: Int {
        switch self {
        case .uint8, .int8, .bool: 1
        case .uint16, .int16: 2
        case .uint32, .int32, .float32: 4
        case .uint64, .int64, .float64, .string: 8
        case .array: 12
        }
    }
}

/// One GGUF metadata value.
public enum GGUFValue: Sendable, Equatable {
    case uint8(UInt8)
    case int8(Int8)
    case uint16(UInt16)
    case int16(Int16)
    case uint32(UInt32)
    case int32(Int32)
    case float32(Float)
    case bool(Bool)
    case string(String)
    case array(GGUFArray)
    case uint64(UInt64)
    case int64(Int64)
    case float64(Double)

    public var type: GGUFValueType {
        switch self {
        case .uint8: .uint8
        case .int8: .int8
        case .uint16: .uint16
        case .int16: .int16
        case .uint32: .uint32
        case .int32: .int32
        case .float32: .float32
        case .bool: .bool
        case .string: .string
        case .array: .array
        case .uint64: .uint64
        case .int64: .int64
        case .float64: .float64
        }
    }

    /// The value as an Int when it is any integer type that fits.
    public var intValue: Int? {
        switch self {
        case .uint8(let v): Int(v)
        case .int8(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        case .int64(let v): Int(exactly: v)
        default: nil
        }
    }
}

/// A homogeneous GGUF metadata array, kept in its stored element type (vocabularies hold 262k entries,
/// so one enum case per element would be wasteful).
public enum GGUFArray: Sendable, Equatable {
    case uint8([UInt8])
    case int8([Int8])
    case uint16([UInt16])
    case int16([Int16])
    case uint32([UInt32])
    case int32([Int32])
    case float32([Float])
    case bool([Bool])
    case string([String])
    case uint64([UInt64])
    case int64([Int64])
    case float64([Double])

    public var elementType: GGUFValueType {
        switch self {
        case .uint8: .uint8
        case .int8: .int8
        case .uint16: .uint16
        case .int16: .int16
        case .uint32: .uint32
        case .int32: .int32
        case .float32: .float32
        case .bool: .bool
        case .string: .string
        case .uint64: .uint64
        case .int64: .int64
        case .float64: .float64
        }
    }

    public var count: Int {
        switch self {
        case .uint8(let a): a.count
        case .int8(let a): a.count
        case .uint16(let a): a.count
        case .int16(let a): a.count
        case .uint32(let a): a.count
        case .int32(let a): a.count
        case .float32(let a): a.count
        case .bool(let a): a.count
        case .string(let a): a.count
        case .uint64(let a): a.count
        case .int64(let a): a.count
        case .float64(let a): a.count
        }
    }

    /// Integer elements widened to Int, or nil when the array is not integral or a value does not fit.
    public var intValues: [Int]? {
        switch self {
        case .uint8(let a): a.map { Int($0) }
        case .int8(let a): a.map { Int($0) }
        case .uint16(let a): a.map { Int($0) }
        case .int16(let a): a.map { Int($0) }
        case .uint32(let a): a.map { Int($0) }
        case .int32(let a): a.map { Int($0) }
        case .uint64(let a): Self.exactInts(a)
        case .int64(let a): Self.exactInts(a)
        default: nil
        }
    }

    private static func exactInts<T: BinaryInteger>(_ values: [T]) -> [Int]? {
        var out: [Int] = []
        out.reserveCapacity(values.count)
        for value in values {
            guard let v = Int(exactly: value) else { return nil }
            out.append(v)
        }
        return out
    }
}
