import SwitchboardCore

extension OpenAIWireFormat {
    /// The `response_format` for a schema. Strict mode (OpenAI's constrained decoding) takes only
    /// schemas in its subset: every object closed (`additionalProperties: false`, added here, as the
    /// reply's validation refuses unknown properties anyway) and every property required. A schema
    /// outside it goes non-strict rather than being rejected with a 400; the reply is validated
    /// either way.
    func responseFormat(_ schema: JSONValue) -> JSONValue {
        switch responseFormatStyle {
        case .jsonSchema:
            let strict = strictJSONSchema ? Self.strictSchema(schema) : nil
            return ["type": "json_schema",
                    "json_schema": ["name": "response", "schema": strict ?? schema, "strict": .bool(strict != nil)]]
        case .jsonObjectWithSchema:
            return ["type": "json_object", "schema": schema]
        }
    }

    /// Keywords strict mode rejects (optional properties have no strict form but `anyOf` with null).
    static let notStrict: Set<String> = ["oneOf", "allOf", "not", "minLength", "maxLength", "prefixItems", "uniqueItems",
                                         "minProperties", "maxProperties", "patternProperties", "propertyNames", "if", "then", "else",
                                         "contains", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems"]
    /// The string formats strict mode enforces.
    static let strictFormats: Set<String> = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]

    /// `schema` with every object closed, or nil when strict mode cannot take it. `$defs` and
    /// `definitions` are closed too (strict mode follows `$ref`s into them, recursion included).
    static func strictSchema(_ schema: JSONValue, depth: Int = 0) -> JSONValue? {
        guard depth < 64, case .object(var node) = schema else { return nil }
        if node.keys.contains(where: notStrict.contains) { return nil }
        if let format = node["format"]?.stringValue, !strictFormats.contains(format) { return nil }
        for key in ["$defs", "definitions"] {
            guard case .object(let definitions)? = node[key] else { continue }
            var closed: [String: JSONValue] = [:]
            for (name, child) in definitions {
                guard let strict = strictSchema(child, depth: depth + 1) else { return nil }
                closed[name] = strict
            }
            node[key] = .object(closed)
        }
        if case .object(let properties)? = node["properties"] {
            let required = Set((node["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            guard properties.keys.allSatisfy(required.contains) else { return nil }
            var closed: [String: JSONValue] = [:]
            for (name, child) in properties {
                guard let strict = strictSchema(child, depth: depth + 1) else { return nil }
                closed[name] = strict
            }
            node["properties"] = .object(closed)
        }
        if node["type"] == "object" || node["properties"] != nil {
            if node["additionalProperties"].map({ $0 != false }) == true { return nil }
            node["additionalProperties"] = false
        }
        if let items = node["items"], items != false {
            guard let strict = strictSchema(items, depth: depth + 1) else { return nil }
            node["items"] = strict
        }
        if let choices = node["anyOf"]?.arrayValue {
            var strict: [JSONValue] = []
            for choice in choices {
                guard let converted = strictSchema(choice, depth: depth + 1) else { return nil }
                strict.append(converted)
            }
            node["anyOf"] = .array(strict)
        }
        return .object(node)
    }
}
