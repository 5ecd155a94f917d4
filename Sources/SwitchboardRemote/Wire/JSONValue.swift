import Foundation

/// Any JSON value: request bodies are built from these (schemas are arbitrary JSON), and encoded with
/// sorted keys so tests and logs see a stable form.
package enum JSONValue: Sendable, Hashable, Codable, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, b in b }))
    }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(floatLiteral value: Double) { self = .double(value) }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }
    package subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { array[index] } else { nil }
    }
    package var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    package var intValue: Int? {
        switch self {
        case .int(let i): i
        case .double(let d) where d.rounded() == d && abs(d) < 1e15: Int(d)
        default: nil
        }
    }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    package var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }

    /// Compact JSON with sorted keys.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Parses one document in a single bounded pass (`JSONLimits.reply` unless told otherwise); throws
    /// `JSONParseError`. (`Codable` decoding stays for values embedded in other types.)
    package static func decode(_ data: Data, limits: JSONLimits = .reply) throws -> JSONValue {
        try JSONParser.parse(data, limits: limits)
    }
}
