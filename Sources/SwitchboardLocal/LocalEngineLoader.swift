import Dispatch
import SwitchboardInference

/// Loads a verified GGUF file of any family the engine implements (`SwitchboardInference.LanguageModel`).
public struct LocalEngineLoader: LocalEngineLoading {
    /// Kernel threads per forward pass.
    public var threads: Int

    public init(threads: Int = 2) { self.threads = max(1, threads) }

    public func load(_ file: VerifiedModelFile, progress: @escaping @Sendable (Double) -> Void) async throws
        -> any LocalInferenceEngine {
        // Mapping and checking the weights is synchronous CPU work: keep it off the actors' pool.
        let result: Result<LanguageModel, InferenceError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(InferenceError) in
                    try LanguageModel.load(from: file.path, progress: progress)
                })
            }
        }
        let model: LanguageModel
        switch result {
        case .success(let loaded): model = loaded
        case .failure(let error): throw LocalModelError.loadFailed(error.description)
        }
        return LocalEngine(model: model, contextLength: min(file.contextLength, model.contextLength), threads: threads)
    }
}

@available(*, deprecated, renamed: "LocalEngineLoader", message: "the loader serves every model family, not only Gemma")
public typealias GemmaEngineLoader = LocalEngineLoader
