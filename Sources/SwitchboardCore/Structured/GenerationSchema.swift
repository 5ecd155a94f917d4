/// The shape of a JSON value a generation must produce: built in code (`.object`, `.string`, …) or
/// imported from a JSON Schema document (`init(jsonSchema:)`). Plain values, no I/O: the on-device
/// provider compiles one into a decoding automaton, remote providers send it as JSON Schema.
///
/// Objects are generated with their properties in declaration order (optional ones may be left out)
/// and without additional properties, as FoundationModels does.
public struct GenerationSchema: Sendable, Hashable {
    public indirect enum Kind: Sendable, Hashable {
        case object([Property])
        /// `enumValues` restricts the string to one of them; `maxLength` counts characters.
        case string(enumValues: [String]?, maxLength: Int?)
        case integer(minimum: Int?, maximum: Int?)
        case number(minimum: Double?, maximum: Double?)
        case boolean
        case null
        case array(items: GenerationSchema, minItems: Int, maxItems: Int?)
        /// Any one of these (a nullable value is `anyOf: [value, null]`).
        case anyOf([GenerationSchema])
    }

    /// One property of an object.
    public struct Property: Sendable, Hashable {
        public var name: String
        public var schema: GenerationSchema
        public var isRequired: Bool
        public init(_ name: String, _ schema: GenerationSchema, required: Bool = true) {
            self.name = name; self.schema = schema; self.isRequired = required
        }
        /// A property the model may leave out.
        public static func optional(_ name: String, _ schema: GenerationSchema) -> Property {
            Property(name, schema, required: false)
        }
    }

    public var kind: Kind
    /// What the value means (a guide for the model; shown in the prompt).
    public var description: String?

    public init(_ kind: Kind, description: String? = nil) { self.kind = kind; self.description = description }
}

extension GenerationSchema {
    public static func object(_ properties: [Property], description: String? = nil) -> GenerationSchema {
        GenerationSchema(.object(properties), description: description)
    }
    public static func string(description: String? = nil, enum values: [String]? = nil, maxLength: Int? = nil) -> GenerationSchema {
        GenerationSchema(.string(enumValues: values, maxLength: maxLength), description: description)
    }
    public static func integer(description: String? = nil, minimum: Int? = nil, maximum: Int? = nil) -> GenerationSchema {
        GenerationSchema(.integer(minimum: minimum, maximum: maximum), description: description)
    }
    public static func number(description: String? = nil, minimum: Double? = nil, maximum: Double? = nil) -> GenerationSchema {
        GenerationSchema(.number(minimum: minimum, maximum: maximum), description: description)
    }
    public static func boolean(description: String? = nil) -> GenerationSchema { GenerationSchema(.boolean, description: description) }
    public static let null = GenerationSchema(.null)
    public static func array(of items: GenerationSchema, description: String? = nil, minItems: Int = 0,
                             maxItems: Int? = nil) -> GenerationSchema {
        GenerationSchema(.array(items: items, minItems: minItems, maxItems: maxItems), description: description)
    }
    public static func anyOf(_ choices: [GenerationSchema], description: String? = nil) -> GenerationSchema {
        GenerationSchema(.anyOf(choices), description: description)
    }
    /// This value or `null`.
    public static func nullable(_ schema: GenerationSchema) -> GenerationSchema {
        GenerationSchema(.anyOf([schema, .null]), description: schema.description)
    }

    /// The same schema with `description` as its guide.
    public func described(_ description: String) -> GenerationSchema {
        var copy = self
        copy.description = description
        return copy
    }
}
