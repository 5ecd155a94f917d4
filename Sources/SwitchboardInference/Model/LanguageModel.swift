/// A loaded model: immutable weights over the memory-mapped GGUF file, its tokenizer and
/// hyperparameters. Share one instance between any number of `InferenceSession`s.
public final class LanguageModel: Sendable {
    public let architecture: ModelArchitecture
    public let tokenizer: Tokenizer
    let file: GGUFFile
    let gemma: Gemma3Weights
    let ropeLocal: RotaryEmbedding
    let ropeGlobal: RotaryEmbedding
    let geluTable: [Float]

    /// Longest sequence (prompt + generated tokens) the model was trained for.
    public var contextLength: Int { architecture.contextLength }
    /// Rows of the output matrix (= logits per position).
    public var vocabularySize: Int { architecture.vocabularySize }

    /// Positions whose RoPE cos/sin are tabulated at load; later positions are computed on the fly.
    static let tabulatedPositions = 4096

    private init(file: GGUFFile, progress: (Double) -> Void) throws(InferenceError) {
        let a = try ModelArchitecture(file: file)
        progress(0.15)
        gemma = try Gemma3Weights(file: file, architecture: a) { progress(0.15 + 0.45 * $0) }
        do { tokenizer = try Tokenizer(gguf: file) } catch { throw .tokenizer(error.description) }
        guard tokenizer.vocabularySize <= a.vocabularySize else {
            throw .tokenizer("\(tokenizer.vocabularySize) tokens but only \(a.vocabularySize) embedding rows")
        }
        progress(0.8)
        let positions = min(a.contextLength, Self.tabulatedPositions)
        ropeLocal = RotaryEmbedding(dimensions: a.keyLength, base: a.ropeBaseLocal, tabulated: positions)
        progress(0.9)
        ropeGlobal = RotaryEmbedding(dimensions: a.keyLength, base: a.ropeBase, tabulated: positions)
        geluTable = VectorMath.geluHalfTable()
        architecture = a
        self.file = file
        progress(1)
    }

    /// Maps and validates the GGUF model at `path`. `progress` receives fractions in 0...1 as the
    /// header is parsed, tensors are validated and tables are built.
    public static func load(from path: String, progress: (@Sendable (Double) -> Void)? = nil) throws(InferenceError) -> LanguageModel {
        progress?(0)
        let file: GGUFFile
        do { file = try GGUFFile(contentsOf: path) } catch { throw .gguf(error) }
        progress?(0.1)
        return try LanguageModel(file: file) { progress?($0) }
    }
}
