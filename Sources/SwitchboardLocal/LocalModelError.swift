/// Why an on-device model could not be found, trusted or loaded. Each message says what to do.
public enum LocalModelError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownModel(id: String, known: [String])
    case fileNotFound(path: String, hint: String)
    case unreadable(path: String, reason: String)
    /// The file is not the one the configuration names (corrupt, truncated or a different build).
    case checksumMismatch(expected: String, actual: String)
    case architectureMismatch(expected: String, actual: String)
    /// A file of your own whose `general.architecture` the engine does not implement.
    case unsupportedArchitecture(String, supported: [String])
    /// A file of your own whose `tokenizer.chat_template` is neither ChatML nor Gemma turns: Switchboard
    /// cannot phrase a conversation for it.
    case unsupportedChatTemplate(path: String)
    /// The engine refused the file (bad tensors, unsupported quantization, …).
    case loadFailed(String)
    case insufficientMemory(requiredBytes: UInt64, availableBytes: UInt64)

    static let fetchHint = "run Scripts/fetch-model.sh (or set SWITCHBOARD_MODEL_DIR / SWITCHBOARD_MODEL_PATH)"

    public var description: String {
        switch self {
        case .unknownModel(let id, let known):
            "no model configuration '\(id)'; known: \(known.joined(separator: ", "))"
        case .fileNotFound(let path, let hint): "model file not found at \(path): \(hint)"
        case .unreadable(let path, let reason): "cannot read model file \(path): \(reason)"
        case .checksumMismatch(let expected, let actual):
            "model file checksum mismatch: expected sha256 \(expected), got \(actual); delete the file and run Scripts/fetch-model.sh"
        case .architectureMismatch(let expected, let actual):
            "model architecture mismatch: the configuration expects '\(expected)', the file is '\(actual)'"
        case .unsupportedArchitecture(let name, let supported):
            "the engine does not implement the architecture '\(name)'; it runs \(supported.joined(separator: ", "))"
        case .unsupportedChatTemplate(let path):
            "the chat template in \(path) is neither ChatML nor Gemma turns; pass a file with one of those"
        case .loadFailed(let reason): "the model could not be loaded: \(reason)"
        case .insufficientMemory(let required, let available):
            "not enough memory for the model: needs \(required >> 20) MB, \(available >> 20) MB available"
        }
    }
}
