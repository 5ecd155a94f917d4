import SwitchboardCore

/// A value model of Foundation Models' `DynamicGenerationSchema`: one case per initializer the shell
/// calls, so the translation from `GenerationSchema` is decided and tested here and the shell only
/// spells each case as the framework's initializer.
/// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema
package indirect enum DynamicSchema: Sendable, Hashable {
    /// `init(name:description:properties:)`.
    case object(name: String, description: String?, properties: [Property])
    /// `init(name:description:anyOf:)` with schemas.
    case anyOf(name: String, description: String?, choices: [DynamicSchema])
    /// `init(name:description:anyOf:)` with strings: a string that is one of `choices`.
    case stringChoices(name: String, description: String?, choices: [String])
    /// `init(arrayOf:minimumElements:maximumElements:)`.
    case array(of: DynamicSchema, minimumElements: Int?, maximumElements: Int?)
    /// `init(type: String.self, guides:)`; a `pattern` guide is a regular expression.
    case string(pattern: String?)
    /// `init(type: Int.self, guides:)` with `.minimum` / `.maximum` guides.
    case integer(minimum: Int?, maximum: Int?)
    /// `init(type: Double.self, guides:)` with `.minimum` / `.maximum` guides.
    case number(minimum: Double?, maximum: Double?)
    /// `init(type: Bool.self)`.
    case boolean
    /// `init(referenceTo:)`: a named schema among the root's dependencies.
    case reference(String)

    /// `DynamicGenerationSchema.Property` (`init(name:description:schema:isOptional:)`).
    package struct Property: Sendable, Hashable {
        package var name: String
        package var description: String?
        package var schema: DynamicSchema
        package var isOptional: Bool
        package init(name: String, description: String?, schema: DynamicSchema, isOptional: Bool) {
            self.name = name; self.description = description; self.schema = schema; self.isOptional = isOptional
        }
    }
}

/// A root schema and the named schemas its references point to: the arguments of the framework's
/// `GenerationSchema(root:dependencies:)`.
package struct DynamicSchemaSet: Sendable, Hashable {
    package var root: DynamicSchema
    package var dependencies: [DynamicSchema]

    package init(root: DynamicSchema, dependencies: [DynamicSchema]) { self.root = root; self.dependencies = dependencies }

    /// Translates `schema`, or refuses with `StructuredOutputError.unsupportedSchema` naming the first
    /// construct the framework cannot express; the provider turns that into `invalidRequest`, which
    /// the router answers by trying the next provider (as it does for the engine's grammar refusals).
    ///
    /// What the framework has no guide for is refused rather than dropped, since a dropped rule would
    /// let the system model answer what the schema forbids: dictionaries, tuples, string lengths and
    /// formats, `multipleOf`, constants other than strings, `null` outside an optional property,
    /// open schemas.
    package init(_ schema: GenerationSchema) throws(StructuredOutputError) {
        var lowering = Lowering(definitions: schema.definitions)
        root = try lowering.lower(schema, path: "$", name: "Root")
        // A definition may refer to others: lower every one reached, each once, in a stable order.
        var lowered = Set<String>()
        while let key = lowering.referenced.subtracting(lowered).min() {
            lowered.insert(key)
            guard let definition = schema.definitions[key] else { continue }
            let node = try lowering.lower(definition, path: key, name: key)
            guard node.name != nil else {
                throw .unsupportedSchema(path: key, reason: "a referenced definition must be an object or a choice "
                                         + "(Foundation Models names only those)")
            }
            lowering.dependencies.append(node)
        }
        dependencies = lowering.dependencies
    }
}

extension DynamicSchema {
    /// The name a reference may use, for the schemas the framework names.
    package var name: String? {
        switch self {
        case .object(let name, _, _), .anyOf(let name, _, _), .stringChoices(let name, _, _): name
        default: nil
        }
    }
}

/// One walk over a `GenerationSchema`: inline objects and choices get names from their path (the
/// framework requires names on them), references keep their definition's key.
private struct Lowering {
    let definitions: [String: GenerationSchema]
    var referenced: Set<String> = []
    var dependencies: [DynamicSchema] = []
    /// A schema is at most this deep: a deeper one is refused rather than walked (no unbounded recursion).
    static let maxDepth = 64

    init(definitions: [String: GenerationSchema]) { self.definitions = definitions }

    mutating func lower(_ schema: GenerationSchema, path: String, name: String, depth: Int = 0) throws(StructuredOutputError) -> DynamicSchema {
        guard depth < Self.maxDepth else { throw .unsupportedSchema(path: path, reason: "nested deeper than \(Self.maxDepth) levels") }
        let description = schema.description
        switch schema.kind {
        case .object(let properties):
            var seen = Set<String>()
            var lowered: [DynamicSchema.Property] = []
            for property in properties {
                guard seen.insert(property.name).inserted else {
                    throw .unsupportedSchema(path: path, reason: "the property \(property.name) appears twice")
                }
                let propertyPath = path + "." + property.name
                let (inner, nullable) = Self.unwrapNullable(property.schema)
                if nullable && property.isRequired {
                    throw .unsupportedSchema(path: propertyPath, reason: "a required property that may be null: Foundation Models "
                                             + "leaves an absent value out instead of writing null (make it optional)")
                }
                let node = try lower(inner, path: propertyPath, name: name + "." + property.name, depth: depth + 1)
                lowered.append(.init(name: property.name, description: property.schema.description, schema: node,
                                     isOptional: !property.isRequired))
            }
            return .object(name: name, description: description, properties: lowered)
        case .dictionary:
            throw .unsupportedSchema(path: path, reason: "an object with arbitrary keys has no Foundation Models schema")
        case .string(let rules):
            if let values = rules.enumValues {
                guard !values.isEmpty else { throw .unsupportedSchema(path: path, reason: "an empty enum admits no value") }
                return .stringChoices(name: name, description: description, choices: values)
            }
            if rules.minLength > 0 || rules.maxLength != nil {
                throw .unsupportedSchema(path: path, reason: "string lengths (minLength, maxLength) have no Foundation Models guide")
            }
            if let format = rules.format {
                throw .unsupportedSchema(path: path, reason: "the string format \(format) has no Foundation Models guide")
            }
            return .string(pattern: rules.pattern)
        case .integer(let minimum, let maximum, let multipleOf):
            if let multipleOf, multipleOf != 1 {
                throw .unsupportedSchema(path: path, reason: "multipleOf \(multipleOf) has no Foundation Models guide")
            }
            try Self.checkRange(minimum, maximum, path: path)
            return .integer(minimum: minimum, maximum: maximum)
        case .number(let minimum, let maximum):
            try Self.checkRange(minimum, maximum, path: path)
            if let bound = [minimum, maximum].compactMap({ $0 }).first(where: { !$0.isFinite }) {
                throw .unsupportedSchema(path: path, reason: "the bound \(bound) is not a finite number")
            }
            return .number(minimum: minimum, maximum: maximum)
        case .boolean:
            return .boolean
        case .null:
            throw .unsupportedSchema(path: path, reason: "null has no Foundation Models schema outside an optional property")
        case .array(let items, let minItems, let maxItems):
            if let maxItems, maxItems < minItems {
                throw .unsupportedSchema(path: path, reason: "maxItems \(maxItems) is below minItems \(minItems)")
            }
            let node = try lower(items, path: path + "[]", name: name + ".item", depth: depth + 1)
            return .array(of: node, minimumElements: minItems > 0 ? minItems : nil, maximumElements: maxItems)
        case .tuple:
            throw .unsupportedSchema(path: path, reason: "arrays with per-position items (prefixItems) have no Foundation Models schema")
        case .anyOf(let choices):
            guard !choices.isEmpty else { throw .unsupportedSchema(path: path, reason: "an empty anyOf admits no value") }
            var lowered: [DynamicSchema] = []
            for (index, choice) in choices.enumerated() {
                lowered.append(try lower(choice, path: path + ".anyOf[\(index)]", name: name + ".\(index)", depth: depth + 1))
            }
            return .anyOf(name: name, description: description, choices: lowered)
        case .constants(let values):
            var strings: [String] = []
            for value in values {
                guard case .string(let string) = value else {
                    throw .unsupportedSchema(path: path, reason: "the constant \(value.jsonText.prefix(40)) is not a string; "
                                             + "Foundation Models fixes only string values")
                }
                strings.append(string)
            }
            guard !strings.isEmpty else { throw .unsupportedSchema(path: path, reason: "an empty enum admits no value") }
            return .stringChoices(name: name, description: description, choices: strings)
        case .reference(let key):
            guard definitions[key] != nil else {
                throw .unsupportedSchema(path: path, reason: "the reference \(key) names no definition")
            }
            referenced.insert(key)
            return .reference(key)
        case .open(let reason):
            throw .unsupportedSchema(path: path, reason: "an open schema cannot be generated: \(reason)")
        }
    }

    /// `anyOf [X, null]` (either order) as X and true; anything else unchanged and false.
    static func unwrapNullable(_ schema: GenerationSchema) -> (GenerationSchema, Bool) {
        guard case .anyOf(let choices) = schema.kind, choices.count == 2 else { return (schema, false) }
        let nonNull = choices.filter { $0.kind != .null }
        guard nonNull.count == 1, var inner = nonNull.first else { return (schema, false) }
        if inner.description == nil { inner.description = schema.description }
        return (inner, true)
    }

    static func checkRange<T: Comparable>(_ minimum: T?, _ maximum: T?, path: String) throws(StructuredOutputError) {
        if let minimum, let maximum, maximum < minimum {
            throw .unsupportedSchema(path: path, reason: "the maximum \(maximum) is below the minimum \(minimum)")
        }
    }
}
