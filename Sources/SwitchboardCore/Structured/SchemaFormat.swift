/// The string formats a schema's `format` asserts (validated and generated as those formats, as
/// OpenAI's structured outputs do; other formats are annotations, as JSON Schema 2020-12 says).
///
/// Each format has a generation pattern, a regular language the decoder follows, and a check for
/// validation. The generation pattern is a subset of what validates (a date is never generated as
/// February 29, which only validates in leap years), so generated strings always validate.
public enum SchemaFormat: String, Sendable, Hashable, CaseIterable {
    case date, time, dateTime = "date-time", email, uuid, uri, ipv4, ipv6

    static let dateGeneration = "[0-9]{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
    static let timeGeneration = "(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,3})?(?:Z|[+-](?:0[0-9]|1[0-3]):[0-5][0-9])"
    static let label = "[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?"

    /// The pattern the decoder follows (anchored).
    package var generationPattern: String {
        switch self {
        case .date: "^" + Self.dateGeneration + "$"
        case .time: "^" + Self.timeGeneration + "$"
        case .dateTime: "^" + Self.dateGeneration + "T" + Self.timeGeneration + "$"
        case .email: "^[A-Za-z0-9_+-]{1,16}(?:\\.[A-Za-z0-9_+-]{1,16}){0,2}@\(Self.label)(?:\\.\(Self.label)){0,2}\\.[a-z]{2,6}$"
        case .uuid: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
        case .uri: "^https?://\(Self.label)(?:\\.\(Self.label)){0,3}(?:/[A-Za-z0-9._~-]{0,16}){0,4}$"
        case .ipv4: "^" + Self.octet + "(?:\\." + Self.octet + "){3}$"
        case .ipv6: "^[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){7}$"
        }
    }

    static let octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"

    /// Whether `text` is a value of this format.
    package func isValid(_ text: String) -> Bool {
        switch self {
        case .date: return Self.isDate(text)
        case .time: return Self.isTime(text)
        case .dateTime:
            let parts = text.split(omittingEmptySubsequences: false) { $0 == "T" || $0 == "t" }
            return parts.count == 2 && Self.isDate(String(parts[0])) && Self.isTime(String(parts[1]))
        case .email: return Self.validation.email?.matches(text) ?? false
        case .uuid: return Self.validation.uuid?.matches(text) ?? false
        case .uri: return Self.validation.uri?.matches(text) ?? false
        case .ipv4: return Self.validation.ipv4?.matches(text) ?? false
        case .ipv6: return Self.isIPv6(text)
        }
    }

    /// The validation patterns, compiled once (constants; a test checks each compiles).
    struct Validation: Sendable {
        let email = try? SchemaRegex(#"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@"#
            + #"(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$"#)
        let uuid = try? SchemaRegex("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
        let uri = try? SchemaRegex(#"^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9._~!$&'()*+,;=:@/?#\[\]-]|%[0-9A-Fa-f]{2})*$"#)
        let ipv4 = try? SchemaRegex("^" + SchemaFormat.octet + "(?:\\." + SchemaFormat.octet + "){3}$")
    }
    static let validation = Validation()

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// `YYYY-MM-DD` with the month's real length (February 29 in leap years only).
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = digits(parts[0]), let month = digits(parts[1]), let day = digits(parts[2]), (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day >= 1 && day <= lengths[month - 1]
    }

    /// RFC 3339 `full-time`: `HH:MM:SS[.frac](Z|±HH:MM)`; a leap second only at 23:59:60 UTC.
    static func isTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 9 else { return false }
        var rest = Substring(text)
        func take(_ n: Int) -> Substring? {
            guard rest.count >= n else { return nil }
            let head = rest.prefix(n)
            rest = rest.dropFirst(n)
            return head
        }
        guard let h = take(2).flatMap(digits), take(1) == ":", let m = take(2).flatMap(digits), take(1) == ":",
              let s = take(2).flatMap(digits), h <= 23, m <= 59, s <= 60 else { return false }
        if rest.first == "." {
            rest = rest.dropFirst()
            let fraction = rest.prefix { $0.isASCII && $0.isNumber }
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(fraction.count)
        }
        var offset = 0
        if rest == "Z" || rest == "z" {
            offset = 0
        } else {
            guard let sign = rest.first, sign == "+" || sign == "-" else { return false }
            rest = rest.dropFirst()
            guard rest.count == 5, let oh = take(2).flatMap(digits), take(1) == ":", let om = take(2).flatMap(digits),
                  oh <= 23, om <= 59 else { return false }
            offset = (sign == "+" ? 1 : -1) * (oh * 60 + om)
        }
        guard s == 60 else { return true }
        let utc = ((h * 60 + m - offset) % 1440 + 1440) % 1440
        return utc == 23 * 60 + 59
    }

    /// RFC 4291 text form: eight groups, one `::`, an optional dotted IPv4 tail.
    static func isIPv6(_ text: String) -> Bool {
        guard text.count <= 45, !text.isEmpty, text.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        func groups(_ part: String, allowIPv4Tail: Bool) -> Int? {
            if part.isEmpty { return 0 }
            let items = part.split(separator: ":", omittingEmptySubsequences: false)
            var count = 0
            for (i, item) in items.enumerated() {
                if item.contains("."), allowIPv4Tail, i == items.count - 1 {
                    guard Self.validation.ipv4?.matches(String(item)) == true else { return nil }
                    count += 2
                } else {
                    guard (1...4).contains(item.count), item.allSatisfy(\.isHexDigit) else { return nil }
                    count += 1
                }
            }
            return count
        }
        if halves.count == 1 { return groups(halves[0], allowIPv4Tail: true) == 8 }
        guard let head = groups(halves[0], allowIPv4Tail: false), let tail = groups(halves[1], allowIPv4Tail: true) else { return false }
        return head + tail <= 7
    }
}
