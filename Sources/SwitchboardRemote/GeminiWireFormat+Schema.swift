import SwitchboardCore

extension GeminiWireFormat {
    /// `responseSchema` in Gemini's OpenAPI subset: upper-case types, `nullable` instead of null
    /// unions, `propertyOrdering` to keep the schema's order. What it cannot express is an
    /// `invalidRequest` naming the place, so the router can try another provider.
    static func responseSchema(_ schema: GenerationSchema, path: String = "#", nullable: Bool = false) throws -> JSONValue {
        var node: [String: JSONValue] = [:]
        if let description = schema.description { node["description"] = .string(description) }
        if nullable { node["nullable"] = true }
        switch schema.kind {
        case .object(let properties):
            guard !properties.isEmpty else { throw unsupported(path, "an object needs at least one property") }
            var converted: [String: JSONValue] = [:]
            for property in properties {
                converted[property.name] = try responseSchema(property.schema, path: path + "/properties/" + property.name)
            }
            node["type"] = "OBJECT"
            node["properties"] = .object(converted)
            node["propertyOrdering"] = .array(properties.map { .string($0.name) })
            let required = properties.filter(\.isRequired).map { JSONValue.string($0.name) }
            if !required.isEmpty { node["required"] = .array(required) }
        case .string(let values, let maxLength):
            node["type"] = "STRING"
            if let values { node["format"] = "enum"; node["enum"] = .array(values.map { .string($0) }) }
            if let maxLength { node["maxLength"] = .int(maxLength) }
        case .integer(let minimum, let maximum):
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
            node["items"] = try responseSchema(items, path: path + "/items")
            if minItems > 0 { node["minItems"] = .int(minItems) }
            if let maxItems { node["maxItems"] = .int(maxItems) }
        case .anyOf(let choices):
            // [value, null] is a nullable value; other nulls make every alternative nullable.
            let values = choices.filter { $0.kind != .null }
            let isNullable = nullable || values.count < choices.count
            guard let first = values.first else { throw unsupported(path, "anyOf offers nothing but null") }
            if values.count == 1 {
                var inner = try responseSchema(first, path: path + "/anyOf/0", nullable: isNullable)
                if case .object(var members) = inner, members["description"] == nil, let description = schema.description {
                    members["description"] = .string(description)
                    inner = .object(members)
                }
                return inner
            }
            var converted: [JSONValue] = []
            for (i, choice) in values.enumerated() {
                converted.append(try responseSchema(choice, path: "\(path)/anyOf/\(i)", nullable: isNullable))
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
