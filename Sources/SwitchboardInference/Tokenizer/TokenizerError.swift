/// Why a tokenizer could not be built from a model's metadata.
public enum TokenizerError: Error, Sendable, Equatable, CustomStringConvertible {
    case metadata(GGUFError)
    case unsupportedModel(String)
    case inconsistentVocabulary(String)
    case duplicatePiece(id: Int32, firstID: Int32)
    case invalidSpecialID(name: String, id: Int)

    public var description: String {
        switch self {
        case .metadata(let error):
            "tokenizer metadata unusable: \(error)"
        case .unsupportedModel(let model):
            "tokenizer model '\(model)' is not supported (only SentencePiece 'llama' vocabularies are)"
        case .inconsistentVocabulary(let detail):
            "tokenizer vocabulary is inconsistent: \(detail) (the model file is corrupt or mis-converted)"
        case .duplicatePiece(let id, let firstID):
            "tokenizer piece \(id) duplicates piece \(firstID) (the model file is corrupt or mis-converted)"
        case .invalidSpecialID(let name, let id):
            "tokenizer \(name) id \(id) is outside the vocabulary"
        }
    }
}
