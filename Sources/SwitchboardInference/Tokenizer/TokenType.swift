/// SentencePiece / llama.cpp token types as stored in `tokenizer.ggml.token_type`.
public enum TokenType: Int32, Sendable, CaseIterable {
    case undefined = 0
    case normal = 1
    case unknown = 2
    case control = 3
    case userDefined = 4
    case unused = 5
    case byte = 6

    /// Any unrecognised stored value maps to `.undefined`, as llama.cpp does.
    public init(stored: Int32) { self = TokenType(rawValue: stored) ?? .undefined }

    /// Split out of raw text before SentencePiece runs (user-defined always; the rest only when
    /// special tokens are parsed).
    var isSpecial: Bool { self == .control || self == .userDefined || self == .unknown }
}
