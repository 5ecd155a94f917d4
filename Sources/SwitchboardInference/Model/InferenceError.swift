/// Why the engine could not load a model or run a request. Every message says what to do next.
public enum InferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or parsed.
    case gguf(GGUFError)
    /// `general.architecture` names a model family the engine does not implement.
    case unsupportedArchitecture(String)
    case missingTensor(String)
    /// A tensor exists but has an unexpected shape or an element type the kernels do not handle.
    case unsupportedTensor(name: String, reason: String)
    /// Prompt plus generated tokens would exceed the session's context window.
    case contextLengthExceeded(limit: Int, requested: Int)
    case emptyPrompt
    /// More sequences in one batched step than the session holds.
    case batchTooLarge(limit: Int, requested: Int)
    /// The request's keys and values (prompt + `maxTokens`) need more memory than the engine's whole
    /// KV budget (`BatchedGenerator(kvBudgetBytes:)`).
    case kvBudgetExceeded(neededBytes: Int, budgetBytes: Int)
    /// A token id outside the vocabulary.
    case invalidToken(Int32)
    /// The model file has no usable tokenizer.
    case tokenizer(String)
    case cancelled
    /// The output constraint could not be met (see `ConstraintError`).
    case constraint(ConstraintError)

    public var description: String {
        switch self {
        case .gguf(let error):
            "could not read the model file: \(error)"
        case .unsupportedArchitecture(let name):
            "model architecture '\(name)' is not supported (supported: \(TransformerFamilies.supported.joined(separator: ", "))); use a GGUF of one of those families, e.g. gemma-3-270m-q4_k_m.gguf or SmolLM2-135M-Instruct.Q4_1.gguf"
        case .missingTensor(let name):
            "the model file has no tensor '\(name)'; the file is incomplete or not a supported conversion"
        case .unsupportedTensor(let name, let reason):
            "tensor '\(name)' cannot be used: \(reason); re-quantize the model with a supported type (F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q4_K, Q6_K)"
        case .contextLengthExceeded(let limit, let requested):
            "the request needs \(requested) tokens of context but the session allows \(limit); shorten the prompt, lower maxTokens or create the session with a larger context"
        case .batchTooLarge(let limit, let requested):
            "a batched step asked for \(requested) sequences but the session holds \(limit); create it with a larger capacity"
        case .kvBudgetExceeded(let needed, let budget):
            "the request's KV cache needs \(Self.megabytes(needed)) (prompt + maxTokens) but the engine's KV budget is \(Self.megabytes(budget)); lower maxTokens, shorten the prompt or raise the budget"
        case .emptyPrompt:
            "the prompt is empty; pass at least one token (or enable addBOS)"
        case .invalidToken(let id):
            "token id \(id) is outside the model's vocabulary"
        case .tokenizer(let detail):
            "the model's tokenizer could not be loaded: \(detail)"
        case .cancelled:
            "generation was cancelled"
        case .constraint(let error):
            error.description
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        guard bytes >= 1_048_576 else { return "\(max(0, bytes) / 1024) KB" }
        let tenths = bytes / 104_858
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
