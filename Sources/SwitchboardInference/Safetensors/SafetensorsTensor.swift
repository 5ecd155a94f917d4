/// The format's element types. Every one is known so each tensor's byte range can be checked (a
/// transformers file often carries an I64 `position_ids` buffer); F32, F16 and BF16 are read as Float.
public enum SafetensorsDType: String, Sendable, CaseIterable {
    case bool = "BOOL", u8 = "U8", i8 = "I8", f8e5m2 = "F8_E5M2", f8e4m3 = "F8_E4M3"
    case i16 = "I16", u16 = "U16", f16 = "F16", bf16 = "BF16"
    case i32 = "I32", u32 = "U32", f32 = "F32"
    case i64 = "I64", u64 = "U64", f64 = "F64"

    public var byteSize: Int {
        switch self {
        case .bool, .u8, .i8, .f8e5m2, .f8e4m3: 1
        case .i16, .u16, .f16, .bf16: 2
        case .i32, .u32, .f32: 4
        case .i64, .u64, .f64: 8
        }
    }

    /// Whether `SafetensorsFile.floats` reads it.
    public var isFloatConvertible: Bool { self == .f32 || self == .f16 || self == .bf16 }
}

/// Where one tensor lives in a safetensors file. `shape` is row-major, outermost first (PyTorch's
/// order: a linear layer's weight is `[out, in]`).
public struct SafetensorsTensor: Sendable, Equatable {
    public let name: String
    public let dtype: SafetensorsDType
    public let shape: [Int]
    /// Absolute byte offset of the first element in the file.
    public let offset: Int
    public let byteCount: Int
    public var elementCount: Int { byteCount / dtype.byteSize }
}
