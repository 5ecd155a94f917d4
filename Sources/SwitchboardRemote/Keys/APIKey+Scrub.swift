import Foundation

extension APIKey {
    /// Where a redacted span may widen to: the whole token around it, tokens being text between these.
    private static let tokenBoundaries: Set<UInt8> = Set(" \"',;\n\t()[]{}:<>".utf8)

    /// Replaces the key, or any 8-character piece of it, in any form a server may echo, with
    /// `(redacted)` (widened to the whole token around it, so a partly masked key goes too). Forms:
    /// as is, in any mix of letter case, base64 (standard and URL-safe, at any alignment),
    /// URL-encoded, hex (upper or lower case), and any of these split by separators (spaces, dashes,
    /// dots, underscores, colons, slashes, zero-width and other invisible characters) anywhere.
    /// Matching runs on a normalized copy (ASCII lower-cased, separators dropped) of the text and of
    /// the key's forms, in one linear pass: bounded cost on any input.
    public func scrub(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        let whole = revealForAuthenticationHeader()
        let result = text.replacingOccurrences(of: whole, with: "(redacted)")
        guard result.utf8.count >= 8, !fragmentSet.isEmpty else { return result }
        let marked = Self.matches(in: result, fragments: fragmentSet)
        guard !marked.isEmpty else { return result }
        let bytes = Array(result.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        var index = 0
        while index < marked.count {
            // Merge overlapping matches, then widen to token boundaries.
            var span = marked[index]
            index += 1
            while index < marked.count, marked[index].lowerBound <= span.upperBound {
                span = span.lowerBound..<max(span.upperBound, marked[index].upperBound)
                index += 1
            }
            var start = span.lowerBound, end = span.upperBound
            while start > copied, !Self.tokenBoundaries.contains(bytes[start - 1]) { start -= 1 }
            while end < bytes.count, !Self.tokenBoundaries.contains(bytes[end]) { end += 1 }
            output += bytes[copied..<max(copied, start)]
            output += Array("(redacted)".utf8)
            copied = max(copied, end)
            while index < marked.count, marked[index].lowerBound < copied { index += 1 }
        }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }

    /// Original byte ranges of `text` whose normalized form holds an 8-byte window of `fragments`.
    private static func matches(in text: String, fragments: Set<UInt64>) -> [Range<Int>] {
        var marked: [Range<Int>] = []
        var window: UInt64 = 0
        var origins = [Int](repeating: 0, count: 8)  // original offset of each of the last 8 normalized bytes
        var pushed = 0
        var offset = 0
        for scalar in text.unicodeScalars {
            let length = scalar.utf8.count
            defer { offset += length }
            if isSeparator(scalar) { continue }
            for byte in scalar.utf8 {
                window = window << 8 | UInt64(folded(byte))
                origins[pushed & 7] = offset
                pushed += 1
                if pushed >= 8, fragments.contains(window) {
                    marked.append(origins[(pushed - 8) & 7]..<(offset + length))
                }
            }
        }
        return marked
    }

    /// Characters that may be slipped between the key's characters: dropped before matching.
    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return " \t\n\r\u{0B}\u{0C}-._:,;/\\|'\"`()[]{}<>".unicodeScalars.contains(scalar)
        }
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return true }
        switch properties.generalCategory {
        case .format, .spaceSeparator, .dashPunctuation, .connectorPunctuation, .control: return true
        default: return ["\u{00B7}", "\u{2022}", "\u{2024}", "\u{2025}", "\u{2026}", "\u{30FB}"].contains(scalar)
        }
    }

    private static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Every 8-byte window of the key's forms, normalized as `scrub` normalizes text.
    static func fragments(of secret: String) -> Set<UInt64> {
        let bytes = Array(secret.utf8)
        var forms: [String] = [secret, bytes.map { String(format: "%02x", $0) }.joined()]
        for encoding in [CharacterSet.alphanumerics, CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))] {
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: encoding) { forms.append(encoded) }
        }
        var set = Set<UInt64>()
        for form in forms { insertWindows(normalized(form)[...], into: &set) }
        // Base64 depends on where the key falls in the encoded text: try all three alignments and keep
        // only the characters that depend on the key alone.
        for filler in 0..<3 {
            let encoded = (Data(repeating: 0x20, count: filler) + Data(bytes)).base64EncodedString()
            let characters = Array(encoded)
            let trim = filler == 0 ? 0 : 4
            guard characters.count > trim + 4 + 8 else { continue }
            let core = String(characters[trim..<(characters.count - 4)])
            insertWindows(normalized(core)[...], into: &set)
            insertWindows(normalized(core.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))[...],
                          into: &set)
        }
        return set
    }

    private static func normalized(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars where !isSeparator(scalar) { bytes += scalar.utf8.map(folded) }
        return bytes
    }

    private static func insertWindows(_ bytes: ArraySlice<UInt8>, into set: inout Set<UInt64>) {
        guard bytes.count >= 8 else { return }
        var window: UInt64 = 0
        for (offset, byte) in bytes.enumerated() {
            window = window << 8 | UInt64(byte)
            if offset >= 7 { set.insert(window) }
        }
    }
}
