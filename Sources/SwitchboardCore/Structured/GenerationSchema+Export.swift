extension GenerationSchema {
    /// The schema as a JSON Schema document (compact; properties in order, `additionalProperties`
    /// false), for `OutputFormat.jsonSchema`, remote providers and the prompt.
    public var jsonSchemaText: String { jsonSchema.jsonText }

    /// The schema as a JSON Schema value.
    public var jsonSchema: GeneratedContent {
        var members: [(key: String, value: GeneratedContent)] = []
        func add(_ key: String, _ value: GeneratedContent) { members.append((key, value)) }
        func number(_ value: some BinaryInteger) -> GeneratedContent { .number(String(value)) }
        switch kind {
        case .object(let properties):
            add("type", .string("object"))
            add("properties", .object(properties.map { ($0.name, $0.schema.jsonSchema) }))
            add("required", .array(properties.filter(\.isRequired).map { .string($0.name) }))
            add("additionalProperties", .bool(false))
        case .string(let values, let maxLength):
            add("type", .string("string"))
            if let values { add("enum", .array(values.map(GeneratedContent.string))) }
            if let maxLength { add("maxLength", number(maxLength)) }
        case .integer(let minimum, let maximum):
            add("type", .string("integer"))
            if let minimum { add("minimum", number(minimum)) }
            if let maximum { add("maximum", number(maximum)) }
        case .number(let minimum, let maximum):
            add("type", .string("number"))
            if let minimum { add("minimum", .number(Self.jsonNumber(minimum))) }
            if let maximum { add("maximum", .number(Self.jsonNumber(maximum))) }
        case .boolean: add("type", .string("boolean"))
        case .null: add("type", .string("null"))
        case .array(let items, let minItems, let maxItems):
            add("type", .string("array"))
            add("items", items.jsonSchema)
            if minItems > 0 { add("minItems", number(minItems)) }
            if let maxItems { add("maxItems", number(maxItems)) }
        case .anyOf(let choices):
            add("anyOf", .array(choices.map(\.jsonSchema)))
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

extension OutputFormat {
    /// JSON following `schema`.
    public static func schema(_ schema: GenerationSchema) -> OutputFormat { .jsonSchema(schema.jsonSchemaText) }
}
