extension GenerationSchema {
    /// The schema as a JSON Schema document (compact; properties in order, `additionalProperties`
    /// false), for `OutputFormat.jsonSchema`, remote providers and the prompt. An imported schema
    /// exports the document it was imported from.
    public var jsonSchemaText: String { jsonSchema.jsonText }

    /// The schema as a JSON Schema value.
    public var jsonSchema: GeneratedContent {
        if let document { return document.document }
        guard case .object(var members) = exported else { return exported }
        let named = definitions.filter { !$0.key.hasPrefix("#") }.sorted { $0.key < $1.key }
        if !named.isEmpty { members.append(("$defs", .object(named.map { ($0.key, $0.value.exported) }))) }
        return .object(members)
    }

    /// This node without the root's definitions.
    private var exported: GeneratedContent {
        var members: [(key: String, value: GeneratedContent)] = []
        func add(_ key: String, _ value: GeneratedContent) { members.append((key, value)) }
        func number(_ value: some BinaryInteger) -> GeneratedContent { .number(String(value)) }
        switch kind {
        case .object(let properties):
            add("type", .string("object"))
            add("properties", .object(properties.map { ($0.name, $0.schema.exported) }))
            add("required", .array(properties.filter(\.isRequired).map { .string($0.name) }))
            add("additionalProperties", .bool(false))
        case .dictionary(let values, let minProperties, let maxProperties):
            add("type", .string("object"))
            add("additionalProperties", values.exported)
            if minProperties > 0 { add("minProperties", number(minProperties)) }
            if let maxProperties { add("maxProperties", number(maxProperties)) }
        case .string(let rules):
            add("type", .string("string"))
            if let values = rules.enumValues { add("enum", .array(values.map(GeneratedContent.string))) }
            if rules.minLength > 0 { add("minLength", number(rules.minLength)) }
            if let maxLength = rules.maxLength { add("maxLength", number(maxLength)) }
            if let pattern = rules.pattern { add("pattern", .string(pattern)) }
            if let format = rules.format { add("format", .string(format.rawValue)) }
        case .integer(let minimum, let maximum, let multipleOf):
            add("type", .string("integer"))
            if let minimum { add("minimum", number(minimum)) }
            if let maximum { add("maximum", number(maximum)) }
            if let multipleOf { add("multipleOf", number(multipleOf)) }
        case .number(let minimum, let maximum):
            add("type", .string("number"))
            if let minimum { add("minimum", .number(Self.jsonNumber(minimum))) }
            if let maximum { add("maximum", .number(Self.jsonNumber(maximum))) }
        case .boolean: add("type", .string("boolean"))
        case .null: add("type", .string("null"))
        case .array(let items, let minItems, let maxItems):
            add("type", .string("array"))
            add("items", items.exported)
            if minItems > 0 { add("minItems", number(minItems)) }
            if let maxItems { add("maxItems", number(maxItems)) }
        case .tuple(let prefix, let rest, let minItems, let maxItems):
            add("type", .string("array"))
            add("prefixItems", .array(prefix.map(\.exported)))
            add("items", rest?.exported ?? .bool(false))
            if minItems > 0 { add("minItems", number(minItems)) }
            if let maxItems { add("maxItems", number(maxItems)) }
        case .anyOf(let choices):
            add("anyOf", .array(choices.map(\.exported)))
        case .constants(let values):
            if values.count == 1 { add("const", values[0]) } else { add("enum", .array(values)) }
        case .reference(let name):
            add("$ref", .string(name.hasPrefix("#") ? name : "#/$defs/" + name.replacingTildesAndSlashes))
        case .open:
            break
        }
        if let description { members.insert(("description", .string(description)), at: 0) }
        return .object(members)
    }

    /// A finite Double as JSON number text (whole values without a fraction).
    static func jsonNumber(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}

extension String {
    /// A JSON pointer token (RFC 6901): `~` as `~0`, `/` as `~1`.
    var replacingTildesAndSlashes: String {
        var out = ""
        for c in self { out += c == "~" ? "~0" : c == "/" ? "~1" : String(c) }
        return out
    }
}

extension OutputFormat {
    /// JSON following `schema`.
    public static func schema(_ schema: GenerationSchema) -> OutputFormat { .jsonSchema(schema.jsonSchemaText) }
}
