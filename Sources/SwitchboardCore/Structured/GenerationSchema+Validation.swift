extension GenerationSchema {
    /// Throws `schemaMismatch` (with the JSON path of the first problem) unless `content` follows
    /// this schema, with JSON Schema's semantics: an imported schema by its document, a schema built
    /// in code by its export (properties in any order, unknown ones refused).
    public func validate(_ content: GeneratedContent, path: String = "$") throws(StructuredOutputError) {
        try validator().validate(content, path: path)
    }

    /// The compiled document this schema validates with.
    package func validator() throws(StructuredOutputError) -> JSONSchemaValidator {
        if let document { return document }
        return try JSONSchemaValidator(document: jsonSchema)
    }

    /// Parses `text` and validates it: the JSON value, or why it is not a valid answer.
    public func parseValid(_ text: String) throws(StructuredOutputError) -> GeneratedContent {
        let content = try GeneratedContent(json: text)
        try validate(content)
        return content
    }
}

extension GeneratedContent {
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
