import Foundation

/// A secret API key. Every textual form (`description`, `debugDescription`, mirrors, `dump`, string
/// interpolation) is redacted and shows no character of the secret; the type is deliberately not
/// `Codable`, so it cannot be encoded into a report or a log by accident.
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let secret: String

    /// Nil for an empty or whitespace-only key.
    public init?(_ secret: String) {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        self.secret = trimmed
    }

    /// The secret itself, for building an authentication header. Nothing else should call this.
    public func revealForAuthenticationHeader() -> String { secret }

    public var count: Int { secret.count }
    public var description: String { "APIKey(redacted, \(secret.count) chars)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["redacted": "\(secret.count) chars"], displayStyle: .struct) }

    /// Replaces the secret, and tokens that carry a long piece of it (servers echo keys back, sometimes
    /// partly masked), with `(redacted)`.
    public func scrub(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        var result = text.replacingOccurrences(of: secret, with: "(redacted)")
        guard secret.count >= 16 else { return result }
        let head = String(secret.prefix(8)), tail = String(secret.suffix(8))
        if result.contains(head) || result.contains(tail) {
            let separators: Set<Character> = [" ", "\"", "'", ",", ";", "\n", "\t", "(", ")", "[", "]", "{", "}", ":"]
            var output = ""
            var token = ""
            func flush() {
                output += (token.contains(head) || token.contains(tail)) ? "(redacted)" : token
                token = ""
            }
            for character in result {
                if separators.contains(character) { flush(); output.append(character) } else { token.append(character) }
            }
            flush()
            result = output
        }
        return result
    }
}
