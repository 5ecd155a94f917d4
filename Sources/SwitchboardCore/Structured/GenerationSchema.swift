/// The shape of a JSON value a generation must produce: built in code (`.object`, `.string`, …) or
/// imported from a JSON Schema document (`init(jsonSchema:)`). Plain values, no I/O: the on-device
/// provider compiles one into a decoding automaton, remote providers send it as JSON Schema.
///
/// Objects are generated with their properties in declaration order (optional ones may be left out)
/// and without additional properties, as FoundationModels does. An imported schema keeps its
/// document: validation follows the document exactly (JSON Schema 2020-12), and `kind` is the part
/// of it the decoder generates from (a subset of what validates).
public struct GenerationSchema: Sendable, Hashable {
    public indirect enum Kind: Sendable, Hashable {
        case object([Property])
        /// An object with any keys, each value following `values` (`additionalProperties` as a schema).
        case dictionary(values: GenerationSchema, minProperties: Int, maxProperties: Int?)
        case string(StringRules)
        case integer(minimum: Int?, maximum: Int?, multipleOf: Int?)
        case number(minimum: Double?, maximum: Double?)
        case boolean
        case null
        case array(items: GenerationSchema, minItems: Int, maxItems: Int?)
        /// `prefixItems`: item `i` follows `prefix[i]`, later ones `rest` (none when `rest` is nil).
        case tuple(prefix: [GenerationSchema], rest: GenerationSchema?, minItems: Int, maxItems: Int?)
        /// Any one of these (a nullable value is `anyOf: [value, null]`).
        case anyOf([GenerationSchema])
        /// One of these JSON values exactly (`const`, or `enum` of any values).
        case constants([GeneratedContent])
        /// The schema named `name` in the root's `definitions` (a pointer such as `#/$defs/Node` for
        /// imported schemas): how nested and recursive types are written.
        case reference(String)
        /// Any value the validator accepts, which the decoder cannot generate from (`reason` says why:
        /// no type, a keyword that cannot be enforced while generating).
        case open(reason: String)
    }

    /// What a string must be: one of `enumValues`, a length in characters (Unicode scalars, as JSON
    /// Schema counts), a `pattern` (ECMA-262 subset, searched anywhere unless anchored), a `format`.
    public struct StringRules: Sendable, Hashable {
        public var enumValues: [String]?
        public var minLength: Int
        public var maxLength: Int?
        public var pattern: String?
        public var format: SchemaFormat?
        public init(enumValues: [String]? = nil, minLength: Int = 0, maxLength: Int? = nil, pattern: String? = nil, format: SchemaFormat? = nil) {
            self.enumValues = enumValues; self.minLength = minLength; self.maxLength = maxLength; self.pattern = pattern; self.format = format
        }
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
    /// Named schemas that `.reference` points to (on the root schema).
    public var definitions: [String: GenerationSchema] = [:]
    /// The imported document, compiled: validation follows it rather than `kind`.
    var document: JSONSchemaValidator?

    public init(_ kind: Kind, description: String? = nil, definitions: [String: GenerationSchema] = [:]) {
        self.kind = kind; self.description = description; self.definitions = definitions
    }

    public static func == (a: GenerationSchema, b: GenerationSchema) -> Bool {
        a.kind == b.kind && a.description == b.description && a.definitions == b.definitions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(description)
    }
}

extension GenerationSchema {
    public static func object(_ properties: [Property], description: String? = nil) -> GenerationSchema {
        GenerationSchema(.object(properties), description: description)
    }
    public static func dictionary(of values: GenerationSchema, description: String? = nil, minProperties: Int = 0,
                                  maxProperties: Int? = nil) -> GenerationSchema {
        GenerationSchema(.dictionary(values: values, minProperties: minProperties, maxProperties: maxProperties), description: description)
    }
    public static func string(description: String? = nil, enum values: [String]? = nil, minLength: Int = 0, maxLength: Int? = nil,
                              pattern: String? = nil, format: SchemaFormat? = nil) -> GenerationSchema {
        GenerationSchema(.string(StringRules(enumValues: values, minLength: minLength, maxLength: maxLength, pattern: pattern, format: format)),
                         description: description)
    }
    public static func integer(description: String? = nil, minimum: Int? = nil, maximum: Int? = nil, multipleOf: Int? = nil) -> GenerationSchema {
        GenerationSchema(.integer(minimum: minimum, maximum: maximum, multipleOf: multipleOf), description: description)
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
    public static func tuple(_ prefix: [GenerationSchema], rest: GenerationSchema? = nil, description: String? = nil,
                             minItems: Int? = nil, maxItems: Int? = nil) -> GenerationSchema {
        GenerationSchema(.tuple(prefix: prefix, rest: rest, minItems: minItems ?? prefix.count, maxItems: maxItems), description: description)
    }
    public static func anyOf(_ choices: [GenerationSchema], description: String? = nil) -> GenerationSchema {
        GenerationSchema(.anyOf(choices), description: description)
    }
    /// Exactly `value` (JSON Schema `const`).
    public static func constant(_ value: GeneratedContent, description: String? = nil) -> GenerationSchema {
        GenerationSchema(.constants([value]), description: description)
    }
    /// One of `values` (JSON Schema `enum` of any JSON values).
    public static func oneOf(values: [GeneratedContent], description: String? = nil) -> GenerationSchema {
        GenerationSchema(.constants(values), description: description)
    }
    /// The definition `name` of the root schema (a nested or recursive type).
    public static func reference(_ name: String, description: String? = nil) -> GenerationSchema {
        GenerationSchema(.reference(name), description: description)
    }
    /// Any JSON value: validates everything, cannot be generated.
    public static let any = GenerationSchema(.open(reason: "it allows any JSON value"))
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

    /// The same schema with `definitions` for its references.
    public func defining(_ definitions: [String: GenerationSchema]) -> GenerationSchema {
        var copy = self
        copy.definitions.merge(definitions) { _, new in new }
        return copy
    }
}
