import SwitchboardCore

/// `maxTokens` enforced on what a remote sends, as it streams: a server may ignore `max_tokens`
/// (one character per piece returned 206 characters for 8 tokens; 1 MB pieces returned 30 MB).
/// Every non-empty piece counts as at least one token (servers send one or more tokens per piece,
/// never less), and the text may hold at most `scalarsPerToken` Unicode scalars per token, which
/// also bounds a single piece. A piece past either count is proof the server ignores the limit: the
/// call keeps what fits, stops reading, cancels the transfer and finishes with `.length`, as a model
/// that honoured the limit would. (An honest server's own finish event, right after its last piece,
/// is still read, with its usage.)
struct OutputBudget: Sendable, Hashable {
    /// Longer than the tokens of the usual vocabularies (English averages about four characters a
    /// token; code and whitespace runs reach 16), so an honest reply is never cut before `maxTokens`.
    static let scalarsPerToken = 16

    let maxPieces: Int
    let maxScalars: Int
    private(set) var pieces = 0
    private(set) var scalars = 0

    init(maxTokens: Int) {
        maxPieces = max(1, maxTokens)
        maxScalars = maxPieces.saturatingMultiply(Self.scalarsPerToken)
    }

    var isExhausted: Bool { pieces >= maxPieces || scalars >= maxScalars }

    /// The part of `piece` that fits (all of it, a prefix, or nothing once exhausted), and whether
    /// anything was left out. Costs at most the scalars it admits, however long the piece.
    mutating func admit(_ piece: String) -> (text: Substring, cut: Bool) {
        guard !piece.isEmpty else { return ("", false) }
        guard !isExhausted else { return ("", true) }
        let room = maxScalars - scalars
        let view = piece.unicodeScalars
        var end = view.startIndex
        var taken = 0
        while end != view.endIndex, taken < room {
            view.formIndex(after: &end)
            taken += 1
        }
        pieces += 1
        scalars += taken
        return (Substring(view[..<end]), end != view.endIndex)
    }

    /// Whether `text` shows anything: a scalar that is not whitespace, a control or a format character
    /// (zero-width spaces and joiners). Only such text is progress for the no-token timeout.
    static func isVisible(_ text: Substring) -> Bool {
        text.unicodeScalars.contains { scalar in
            if scalar.properties.isWhitespace { return false }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator: return false
            default: return true
            }
        }
    }
}
