/// Why a BERT sentence encoder could not be loaded or run. Each message names the file at fault.
public enum BertError: Error, Sendable, Equatable, CustomStringConvertible {
    case safetensors(SafetensorsError)
    case gguf(GGUFError)
    case tokenizer(TokenizerError)
    case cannotRead(path: String, reason: String)
    /// `config.json` or the GGUF metadata describe a model this encoder cannot run.
    case unsupportedConfiguration(String)
    case invalidToken(Int32)

    public var description: String {
        switch self {
        case .safetensors(let error): "could not read the encoder weights: \(error)"
        case .gguf(let error): "could not read the encoder GGUF: \(error)"
        case .tokenizer(let error): "could not build the WordPiece tokenizer: \(error)"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .unsupportedConfiguration(let detail): "unsupported BERT configuration: \(detail)"
        case .invalidToken(let id): "token id \(id) is outside the encoder's vocabulary"
        }
    }
}
