import SwitchboardCore

extension GeminiWireFormat {
    /// `responseSchema` in Gemini's OpenAPI subset: upper-case types, `nullable` instead of null
    /// unions, `propertyOrdering` to keep the schema's order, references inlined (Gemini has no
    /// `$ref`; a recursive schema cannot be inlined). Formats other than `date-time` and integer
    /// steps are left out: the reply is validated against the whole schema anyway. What it cannot
    /// express is an `invalidRequest` naming the place, so the router can try another provider.
    static func responseSchema(_ schema: GenerationSchema, path: String = "#", nullable: Bool = false,
                               definitions: [String: GenerationSchema]? = nil, depth: Int = 0) throws -> JSONValue {
        let definitions = definitions ?? schema.definitions
        guard depth < 32 else { throw unsupported(path, "references nest deeper than 32 levels (a recursive schema)") }
        func convert(_ child: GenerationSchema, _ at: String, nullable: Bool = false) throws -> JSONValue {
            try responseSchema(child, path: at, nullable: nullable, definitions: definitions, depth: depth + 1)
        }
        var node: [String: JSONValue] = [:]
        if let description = schema.description { node["description"] = .string(description) }
        if nullable { node["nullable"] = true }
        switch schema.kind {
        case .object(let properties):
            guard !properties.isEmpty else { throw unsupported(path, "an object needs at least one property") }
            var converted: [String: JSONValue] = [:]
            for property in properties {
                converted[property.name] = try convert(property.schema, path + "/properties/" + property.name)
            }
            node["type"] = "OBJECT"
            node["properties"] = .object(converted)
            node["propertyOrdering"] = .array(properties.map { .string($0.name) })
            let required = properties.filter(\.isRequired).map { JSONValue.string($0.name) }
            if !required.isEmpty { node["required"] = .array(required) }
        case .string(let rules):
            node["type"] = "STRING"
            if let values = rules.enumValues { node["format"] = "enum"; node["enum"] = .array(values.map { .string($0) }) }
            if rules.minLength > 0 { node["minLength"] = .int(rules.minLength) }
            if let maxLength = rules.maxLength { node["maxLength"] = .int(maxLength) }
            if let pattern = rules.pattern { node["pattern"] = .string(pattern) }
            if rules.format == .dateTime { node["format"] = "date-time" }
        case .constants(let values):
            let strings = values.compactMap(\.stringValue)
            guard strings.count == values.count else { throw unsupported(path, "a constant that is not a string") }
            node["type"] = "STRING"
            node["format"] = "enum"
            node["enum"] = .array(strings.map { .string($0) })
        case .reference(let name):
            guard let target = definitions[name] else { throw unsupported(path, "the reference \(name) has no definition") }
            var inner = try responseSchema(target, path: name, nullable: nullable, definitions: definitions, depth: depth + 1)
            if case .object(var members) = inner, let description = schema.description {
                members["description"] = .string(description)
                inner = .object(members)
            }
            return inner
        case .dictionary:
            throw unsupported(path, "an object with arbitrary keys (additionalProperties)")
        case .tuple:
            throw unsupported(path, "prefixItems")
        case .open(let reason):
            throw unsupported(path, reason)
        case .integer(let minimum, let maximum, _):
            node["type"] = "INTEGER"
            if let minimum { node["minimum"] = .int(minimum) }
            if let maximum { node["maximum"] = .int(maximum) }
        case .number(let minimum, let maximum):
            node["type"] = "NUMBER"
            if let minimum { node["minimum"] = .double(minimum) }
            if let maximum { node["maximum"] = .double(maximum) }
        case .boolean:
            node["type"] = "BOOLEAN"
        case .null:
            throw unsupported(path, "a value that can only be null (null is expressed as a nullable alternative)")
        case .array(let items, let minItems, let maxItems):
            node["type"] = "ARRAY"
            node["items"] = try convert(items, path + "/items")
            if minItems > 0 { node["minItems"] = .int(minItems) }
            if let maxItems { node["maxItems"] = .int(maxItems) }
        case .anyOf(let choices):
            // [value, null] is a nullable value; other nulls make every alternative nullable.
            let values = choices.filter { $0.kind != .null }
            let isNullable = nullable || values.count < choices.count
            guard let first = values.first else { throw unsupported(path, "anyOf offers nothing but null") }
            if values.count == 1 {
                var inner = try convert(first, path + "/anyOf/0", nullable: isNullable)
                if case .object(var members) = inner, members["description"] == nil, let description = schema.description {
                    members["description"] = .string(description)
                    inner = .object(members)
                }
                return inner
            }
            var converted: [JSONValue] = []
            for (i, choice) in values.enumerated() {
                converted.append(try convert(choice, "\(path)/anyOf/\(i)", nullable: isNullable))
            }
            node["anyOf"] = .array(converted)
            node["nullable"] = nil
        }
        return .object(node)
    }

    private static func unsupported(_ path: String, _ reason: String) -> ProviderError {
        .invalidRequest("Gemini's responseSchema cannot express the schema at \(path): \(reason)")
    }
}
