/// The element encodings the kernels understand, with ggml's block geometry.
///
/// Separate from the GGUF reader's type enum so kernels can be tested without a file; `Model/`
/// maps one to the other.
public enum WeightFormat: Sendable, Equatable, CaseIterable {
    case f32, f16, bf16, q8_0, q4_0, q4_1, q5_0, q4_K, q6_K

    /// Elements per block.
    public var blockSize: Int {
        switch self {
        case .f32, .f16, .bf16: 1
        case .q8_0, .q4_0, .q4_1, .q5_0: 32
        case .q4_K, .q6_K: 256
        }
    }

    /// Bytes per block.
    public var blockBytes: Int {
        switch self {
        case .f32: 4
        case .f16, .bf16: 2
        case .q8_0: 34
        case .q4_0: 18
        case .q4_1: 20
        case .q5_0: 22
        case .q4_K: 144
        case .q6_K: 210
        }
    }

    /// The activation encoding its integer dot product pairs with (nil: float path). Q4_1 pairs
    /// with llama.cpp's Q8_1, which is Q8_0 plus each block's scaled sum (`ActivationBuffer.blockSums`).
    var activationKind: ActivationKind? {
        switch self {
        case .q8_0, .q4_0, .q4_1, .q5_0: .q8_0
        case .q4_K, .q6_K: .q8_K
        case .f32, .f16, .bf16: nil
        }
    }

    /// Bytes in one row of `columns` elements.
    public func rowBytes(columns: Int) -> Int { columns / blockSize * blockBytes }
}
