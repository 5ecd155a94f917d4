import Foundation

/// Why a string cannot be an API key.
public enum APIKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    /// A CR or LF inside the key: sent as a header it would be dropped (no Authorization at all) or split
    /// the request, so it is refused outright.
    case lineBreak
    /// Another control character inside the key.
    case controlCharacter

    public var description: String {
        switch self {
        case .empty: "the API key is empty"
        case .lineBreak: "the API key contains a line break (CR or LF); copy it again without the line break"
        case .controlCharacter: "the API key contains a control character; copy it again from the provider's console"
        }
    }
}

/// A secret API key. Every textual form (`description`, `debugDescription`, mirrors, `dump`, string
/// interpolation) is redacted and shows no character of the secret; the type is deliberately not
/// `Codable`, so it cannot be encoded into a report or a log by accident.
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let secret: String
    /// Every 8-byte window of the key's forms a server might echo (as is, upper- and lower-cased,
    /// base64, URL-encoded), packed into integers, so `scrub` finds any fragment in one pass.
    let fragmentSet: Set<UInt64>

    /// Nil for an empty or whitespace-only key, or one `init(validating:)` refuses.
    public init?(_ secret: String) {
        guard let key = try? APIKey(validating: secret) else { return nil }
        self = key
    }

    /// Leading and trailing whitespace is trimmed; a line break or control character inside is refused.
    public init(validating secret: String) throws(APIKeyError) {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .empty }
        for scalar in trimmed.unicodeScalars {
            if scalar == "\r" || scalar == "\n" || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}" { throw .lineBreak }
            if scalar.value < 0x20 || scalar.value == 0x7F { throw .controlCharacter }
        }
        self.secret = trimmed
        fragmentSet = Self.fragments(of: trimmed)
    }

    /// The secret itself, for building an authentication header. Nothing else should call this.
    public func revealForAuthenticationHeader() -> String { secret }

    public var count: Int { secret.count }
    public var description: String { "APIKey(redacted, \(secret.count) chars)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["redacted": "\(secret.count) chars"], displayStyle: .struct) }

    public static func == (a: APIKey, b: APIKey) -> Bool { a.secret == b.secret }
    public func hash(into hasher: inout Hasher) { hasher.combine(secret) }
}
