/// Why a safetensors file could not be opened, parsed or read. Every case names the file's fault, so a
/// user can tell a truncated download from a file in another format.
public enum SafetensorsError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    /// Fewer than 8 bytes, or a header length that runs past the end of the file.
    case truncatedHeader(declared: UInt64, available: Int)
    /// A declared header length above `SafetensorsFile.maximumHeaderBytes`.
    case headerTooLarge(UInt64)
    case invalidHeader(String)
    case unsupportedDType(tensor: String, dtype: String)
    case invalidShape(tensor: String)
    /// The offsets are reversed, run past the data section, or disagree with the shape and dtype.
    case invalidOffsets(tensor: String, reason: String)
    case overlappingTensors(String, String)
    case missingTensor(String)
    case shapeMismatch(tensor: String, expected: [Int], found: [Int])

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open safetensors file at \(path): \(reason)"
        case .truncatedHeader(let declared, let available):
            "safetensors header declares \(declared) bytes but only \(available) follow (the file is truncated or not safetensors)"
        case .headerTooLarge(let length): "safetensors header declares \(length) bytes, above the 100 MB limit (the file is corrupt)"
        case .invalidHeader(let reason): "safetensors header is invalid: \(reason)"
        case .unsupportedDType(let tensor, let dtype): "tensor '\(tensor)' has dtype \(dtype); only F32, F16 and BF16 are read as floats"
        case .invalidShape(let tensor): "tensor '\(tensor)' has an invalid shape (negative, or too many elements to address)"
        case .invalidOffsets(let tensor, let reason): "tensor '\(tensor)' has invalid data_offsets: \(reason)"
        case .overlappingTensors(let a, let b): "tensors '\(a)' and '\(b)' share bytes (the file is corrupt)"
        case .missingTensor(let name): "the model has no tensor named '\(name)' (wrong architecture or an incomplete file)"
        case .shapeMismatch(let tensor, let expected, let found):
            "tensor '\(tensor)' has shape \(found), expected \(expected)"
        }
    }
}
