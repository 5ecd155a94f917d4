import Foundation

/// Any JSON value, as FoundationModels has it: the arguments of a tool built at run time
/// (`DynamicTool`), or a free-form member of a `Generable` type. Its own schema accepts any value
/// (and cannot be generated from on device); a dynamic tool sends its `parameters` instead.
extension GeneratedContent: Generable {
    public typealias PartiallyGenerated = GeneratedContent
    public static var generationSchema: GenerationSchema {
        GenerationSchema(.open(reason: "any JSON value; a dynamic tool's schema is its parameters"))
    }
    public static func decode(_ content: GeneratedContent) throws(StructuredOutputError) -> GeneratedContent { content }
    public static func partiallyGenerated(from content: GeneratedContent) -> GeneratedContent { content }

    /// A member's key, any string.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if var items = try? decoder.unkeyedContainer() {
            var values: [GeneratedContent] = []
            while !items.isAtEnd { values.append(try items.decode(GeneratedContent.self)) }
            self = .array(values)
            return
        }
        if let members = try? decoder.container(keyedBy: Key.self) {
            // A keyed container does not keep the document's order; keys are sorted so the value is stable.
            self = .object(try members.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                (key: $0.stringValue, value: try members.decode(GeneratedContent.self, forKey: $0))
            })
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let integer = try? value.decode(Int64.self) {
            self = .number(String(integer))
        } else {
            let number = try value.decode(Double.self)
            guard number.isFinite else {
                throw DecodingError.dataCorruptedError(in: value, debugDescription: "JSON numbers are finite")
            }
            self = .number("\(number)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .bool(let bool):
            var value = encoder.singleValueContainer()
            try value.encode(bool)
        case .number(let text):
            var value = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try value.encode(integer)
            } else if let number = Double(text), number.isFinite {
                try value.encode(number)
            } else {
                throw EncodingError.invalidValue(text, .init(codingPath: encoder.codingPath, debugDescription: "not a finite JSON number"))
            }
        case .string(let string):
            var value = encoder.singleValueContainer()
            try value.encode(string)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for member in members { try container.encode(member.value, forKey: Key(stringValue: member.key)) }
        }
    }
}
