/// The element types this reader converts to Float.
public enum SafetensorsDType: String, Sendable, CaseIterable {
    case f32 = "F32"
    case f16 = "F16"
    case bf16 = "BF16"

    public var byteSize: Int {
        switch self {
        case .f32: 4
        case .f16, .bf16: 2
        }
    }
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
