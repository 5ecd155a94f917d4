import Foundation

extension APIKey {
    private static let separators: Set<UInt8> = Set(" \"',;\n\t()[]{}:<>".utf8)

    /// Replaces every token (text between separators) that carries the key or any 8-character piece of
    /// it, in any form a server may echo (upper- or lower-cased, base64, URL-encoded, partly masked),
    /// with `(redacted)`.
    public func scrub(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        let whole = revealForAuthenticationHeader()
        var result = text.replacingOccurrences(of: whole, with: "(redacted)")
        let bytes = Array(result.utf8)
        guard bytes.count >= 8, !fragmentSet.isEmpty else { return result }
        var marked: [Range<Int>] = []
        var window: UInt64 = 0
        for (i, byte) in bytes.enumerated() {
            window = window << 8 | UInt64(byte)
            if i >= 7, fragmentSet.contains(window) { marked.append((i - 7)..<(i + 1)) }
        }
        guard !marked.isEmpty else { return result }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var tokenStart = 0, next = 0
        func flush(_ end: Int) {
            while next < marked.count, marked[next].upperBound <= tokenStart { next += 1 }
            if next < marked.count, marked[next].lowerBound < end {
                output += Array("(redacted)".utf8)
            } else {
                output += bytes[tokenStart..<end]
            }
        }
        for (i, byte) in bytes.enumerated() where Self.separators.contains(byte) {
            flush(i); output.append(byte); tokenStart = i + 1
        }
        flush(bytes.count)
        result = String(decoding: output, as: UTF8.self)
        return result
    }

    static func fragments(of secret: String) -> Set<UInt64> {
        var forms: [[UInt8]] = [Array(secret.utf8), Array(secret.uppercased().utf8), Array(secret.lowercased().utf8)]
        for encoding in [CharacterSet.alphanumerics, CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))] {
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: encoding) {
                forms.append(Array(encoded.utf8)); forms.append(Array(encoded.lowercased().utf8))
            }
        }
        var set = Set<UInt64>()
        for form in forms { insertWindows(form[...], into: &set) }
        // Base64 depends on where the key falls in the encoded text: try all three alignments and keep
        // only the characters that depend on the key alone.
        for filler in 0..<3 {
            let encoded = Array((Data(repeating: 0x20, count: filler) + Data(secret.utf8)).base64EncodedString().utf8)
            let trim = filler == 0 ? 0 : 4
            guard encoded.count > trim + 4 + 8 else { continue }
            insertWindows(encoded[trim..<(encoded.count - 4)], into: &set)
            let urlSafe = encoded.map { $0 == 0x2B ? 0x2D : $0 == 0x2F ? 0x5F : $0 }
            insertWindows(urlSafe[trim..<(urlSafe.count - 4)], into: &set)
        }
        return set
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
