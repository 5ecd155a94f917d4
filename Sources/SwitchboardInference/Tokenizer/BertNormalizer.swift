import Foundation

/// Hugging Face's `BertNormalizer` + `BertPreTokenizer`, as all-MiniLM-L6-v2's `tokenizer.json` sets
/// them: text → words ready for WordPiece.
///
/// Order, as in `tokenizers`: clean the text (drop NUL, U+FFFD and other control characters — Cc, Cf,
/// Cs, Co, Cn — except tab, LF, CR; every White_Space character becomes a space), put spaces around CJK
/// ideographs, strip accents (NFD, then drop nonspacing marks, Mn), lower-case (full Unicode mapping).
/// Then split on whitespace and isolate each punctuation character (Unicode P* and ASCII symbols).
enum BertNormalizer {
    static func words(_ text: String) -> [[Unicode.Scalar]] {
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value == 0 || scalar.value == 0xFFFD || isControl(scalar) { continue }
            if isWhitespace(scalar) { cleaned.append(" "); continue }
            if isCJK(scalar.value) { cleaned.append(" "); cleaned.append(scalar); cleaned.append(" "); continue }
            cleaned.append(scalar)
        }
        let decomposed = String(cleaned).decomposedStringWithCanonicalMapping
        var stripped = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
            stripped.append(scalar)
        }
        let lowered = String(stripped).lowercased()

        var words: [[Unicode.Scalar]] = []
        var word: [Unicode.Scalar] = []
        for scalar in lowered.unicodeScalars {
            if scalar.properties.isWhitespace {
                if !word.isEmpty { words.append(word); word.removeAll(keepingCapacity: true) }
            } else if isPunctuation(scalar) {
                if !word.isEmpty { words.append(word); word.removeAll(keepingCapacity: true) }
                words.append([scalar])
            } else {
                word.append(scalar)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// Tab, LF and CR count as whitespace, not control (Rust `char::is_whitespace` plus those three).
    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s == "\t" || s == "\n" || s == "\r" || s.properties.isWhitespace
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        if s == "\t" || s == "\n" || s == "\r" { return false }
        switch s.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }

    /// The CJK Unified Ideograph blocks BERT treats as one word each (not Hiragana, Katakana or Hangul).
    static func isCJK(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
            || (0x2A700...0x2B73F).contains(v) || (0x2B740...0x2B81F).contains(v) || (0x2B920...0x2CEAF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x2F800...0x2FA1F).contains(v)
    }

    /// ASCII punctuation and symbols (`!`…`/`, `:`…`@`, `[`…`` ` ``, `{`…`~`) or any Unicode P* character.
    static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v) { return true }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }
}
