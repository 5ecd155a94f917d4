/// Why a GGUF file could not be opened, parsed or queried. Every case names what was wrong and where,
/// so the message alone tells a user whether the file is corrupt, truncated or simply not a model file.
public enum GGUFError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case badMagic
    case unsupportedVersion(UInt32)
    case truncated(at: Int, needed: Int)
    case invalidString(at: Int)
    case tooLarge(what: String)
    case unknownValueType(UInt32)
    case nestedArray(key: String)
    case emptyKey(at: Int)
    case duplicateKey(String)
    case invalidAlignment(String)
    case unknownTensorType(name: String, type: UInt32)
    case invalidDimensions(name: String)
    case dimensionMismatch(name: String)
    case misalignedTensor(name: String)
    case tensorOutOfRange(name: String)
    case duplicateTensor(String)
    case missingTensor(String)
    case missingKey(String)
    case typeMismatch(key: String, expected: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open GGUF file at \(path): \(reason)"
        case .badMagic:
            "not a GGUF file: the first four bytes are not \"GGUF\" (check the path points at a .gguf model)"
        case .unsupportedVersion(let version):
            if version & 0xFFFF == 0 {
                "GGUF version \(version) looks byte-swapped: big-endian GGUF files are not supported"
            } else {
                "unsupported GGUF version \(version) (versions 2 and 3 are supported); re-convert the model with a current llama.cpp"
            }
        case .truncated(let offset, let needed):
            "GGUF file is truncated: needed \(needed) more bytes at offset \(offset) (the download may be incomplete)"
        case .invalidString(let offset):
            "GGUF string at offset \(offset) is not valid UTF-8 (the file is corrupt)"
        case .tooLarge(let what):
            "GGUF file declares an implausibly large \(what) (the file is corrupt)"
        case .unknownValueType(let type):
            "GGUF metadata uses unknown value type \(type) (the file is corrupt or from a newer format)"
        case .nestedArray(let key):
            "GGUF metadata key '\(key)' holds an array of arrays, which is not supported"
        case .emptyKey(let offset):
            "GGUF metadata key at offset \(offset) is empty (the file is corrupt)"
        case .duplicateKey(let key):
            "GGUF metadata key '\(key)' appears twice (the file is corrupt)"
        case .invalidAlignment(let detail):
            "GGUF general.alignment is invalid: \(detail); it must be a non-zero power of two stored as uint32"
        case .unknownTensorType(let name, let type):
            "tensor '\(name)' uses ggml type \(type), which this reader does not support"
        case .invalidDimensions(let name):
            "tensor '\(name)' has invalid dimensions (need 1 to 4 dimensions, each at least 1, with a representable size)"
        case .dimensionMismatch(let name):
            "tensor '\(name)': the first dimension is not a multiple of its type's block size"
        case .misalignedTensor(let name):
            "tensor '\(name)' data offset is not a multiple of the file's alignment (the file is corrupt)"
        case .tensorOutOfRange(let name):
            "tensor '\(name)' data lies outside the file (the file is truncated or corrupt)"
        case .duplicateTensor(let name):
            "tensor '\(name)' appears twice (the file is corrupt)"
        case .missingTensor(let name):
            "the model has no tensor named '\(name)' (wrong architecture or an incomplete conversion)"
        case .missingKey(let key):
            "the model has no metadata key '\(key)' (wrong architecture or an incomplete conversion)"
        case .typeMismatch(let key, let expected):
            "metadata key '\(key)' does not hold \(expected)"
        }
    }
}
