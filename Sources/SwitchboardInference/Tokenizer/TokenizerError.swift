/// Why a tokenizer could not be built from a model's metadata.
public enum TokenizerError: Error, Sendable, Equatable, CustomStringConvertible {
    case metadata(GGUFError)
    case unsupportedModel(String)
    /// A byte-level BPE `tokenizer.ggml.pre` value we have no splitter for.
    case unknownPreTokenizer(String)
    /// A merge that is not two pieces separated by a space.
    case malformedMerge(index: Int, entry: String)
    /// A merge whose halves or result are not vocabulary pieces.
    case mergeOutsideVocabulary(index: Int, entry: String)
    case inconsistentVocabulary(String)
    case duplicatePiece(id: Int32, firstID: Int32)
    case invalidSpecialID(name: String, id: Int)

    public var description: String {
        switch self {
        case .metadata(let error):
            "tokenizer metadata unusable: \(error)"
        case .unsupportedModel(let model):
            "tokenizer model '\(model)' is not supported (only SentencePiece 'llama' and byte-level BPE 'gpt2' are)"
        case .unknownPreTokenizer(let name):
            "byte-level BPE pre-tokenizer '\(name)' (tokenizer.ggml.pre) is not supported; supported: "
                + PreTokenizer.supportedNames.joined(separator: ", ")
        case .malformedMerge(let index, let entry):
            "tokenizer merge \(index) \(entry.debugDescription) is not two pieces separated by a space (the model file is corrupt or mis-converted)"
        case .mergeOutsideVocabulary(let index, let entry):
            "tokenizer merge \(index) \(entry.debugDescription) joins or makes a piece that is not in the vocabulary (the model file is corrupt or mis-converted)"
        case .inconsistentVocabulary(let detail):
            "tokenizer vocabulary is inconsistent: \(detail) (the model file is corrupt or mis-converted)"
        case .duplicatePiece(let id, let firstID):
            "tokenizer piece \(id) duplicates piece \(firstID) (the model file is corrupt or mis-converted)"
        case .invalidSpecialID(let name, let id):
            "tokenizer \(name) id \(id) is outside the vocabulary"
        }
    }
}
