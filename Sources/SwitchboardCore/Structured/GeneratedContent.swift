import Foundation

/// A JSON value as a generation produced it. Object members keep their order (the order the model
/// wrote them in); numbers keep their text, so integers stay exact.
public indirect enum GeneratedContent: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's JSON text (e.g. `42`, `-1.5e3`).
    case number(String)
    case string(String)
    case array([GeneratedContent])
    case object([(key: String, value: GeneratedContent)])

    public static func == (a: GeneratedContent, b: GeneratedContent) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let x): hasher.combine(x)
        case .number(let x): hasher.combine(x)
        case .string(let x): hasher.combine(x)
        case .array(let x): hasher.combine(x)
        case .object(let x): for (key, value) in x { hasher.combine(key); hasher.combine(value) }
        }
    }

    /// The value of member `key` of an object.
    public subscript(key: String) -> GeneratedContent? {
        if case .object(let members) = self { members.first { $0.key == key }?.value } else { nil }
    }

    public var numberValue: Double? { if case .number(let text) = self { Double(text) } else { nil } }

    /// Compact JSON text (strings escaped as JSON requires).
    public var jsonText: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let x): text += x ? "true" : "false"
        case .number(let x): text += x
        case .string(let x): text += Self.quoted(x)
        case .array(let items):
            text += "["
            for (i, item) in items.enumerated() { if i > 0 { text += "," }; item.write(to: &text) }
            text += "]"
        case .object(let members):
            text += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { text += "," }
                text += Self.quoted(member.key) + ":"
                member.value.write(to: &text)
            }
            text += "}"
        }
    }

    /// `string` as a JSON string literal.
    public static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
