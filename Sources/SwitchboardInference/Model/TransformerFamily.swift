/// The engine's model seam: one model family (an architecture and its close relatives) as the engine
/// sees it. A family reads and checks its weights once per model (`init`, a Sendable value shared by
/// every session), and builds each session's `ForwardPass`, which holds those weights resolved to
/// pointers into the mapped file and runs the forward pass over a batch of positions.
///
/// Adding a family is one folder under `Model/` and one line in `TransformerFamilies.registry`.
/// Shared pieces: `ForwardContext` (scratch, KV cache, worker pool, matrix products, embedding,
/// attention and logits steps), `Attention`, `RotaryEmbedding`, `VectorMath`, the kernels.
protocol TransformerFamily: Sendable {
    /// Hyperparameter values the family uses where the file's metadata is silent.
    static var defaults: ModelArchitecture.Defaults { get }
    /// Reads and checks every tensor (presence, shape, element type) for hyperparameters `a`.
    init(file: GGUFFile, architecture a: ModelArchitecture, progress: (Double) -> Void) throws(InferenceError)
    /// One session's forward pass, its weights resolved inside `file` (which the model keeps alive).
    func makePass(file: GGUFFile, architecture a: ModelArchitecture) -> any ForwardPass
}

/// A session's forward pass. Not thread-safe: owned by one `ForwardContext`.
protocol ForwardPass: AnyObject {
    /// Every weight matrix the pass multiplies (sizes the activation buffers), the output included.
    var matrices: [WeightMatrix] { get }
    /// The output (logits) matrix: rows = vocabulary.
    var output: WeightMatrix { get }
    /// Runs `count` tokens, row t at `c.rows[t]` (its sequence's KV cache and position), writes their
    /// keys and values to the caches, and calls `onLogits(row, logits)` for every row in
    /// `logitsFrom..<count`, in order. `batch`: the size of the llama.cpp batch these rows belong to
    /// (the kernels follow its float order; 1 for a batched decode, whose rows are separate batches).
    func forward(_ c: ForwardContext, tokens: UnsafePointer<Int32>, count: Int, batch: Int,
                 logitsFrom: Int, onLogits: (Int, UnsafeMutablePointer<Float>) -> Void)
}

/// The families the engine implements, by `general.architecture`.
enum TransformerFamilies {
    static let registry: [String: any TransformerFamily.Type] = [
        "gemma3": Gemma3.self,
        "llama": Llama.self,
        "qwen2": Llama.self,
        "qwen3": Llama.self,
    ]

    static var supported: [String] { registry.keys.sorted() }

    static func family(named name: String) throws(InferenceError) -> any TransformerFamily.Type {
        guard let family = registry[name] else { throw .unsupportedArchitecture(name) }
        return family
    }
}

extension LanguageModel {
    /// The `general.architecture` names the engine implements, sorted.
    package static var supportedArchitectures: [String] { TransformerFamilies.supported }
}
