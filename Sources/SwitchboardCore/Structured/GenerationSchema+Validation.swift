extension GenerationSchema {
    /// Throws `schemaMismatch` (with the JSON path of the first problem) unless `content` follows
    /// this schema. Properties may come in any order here; unknown ones are refused.
    public func validate(_ content: GeneratedContent, path: String = "$") throws(StructuredOutputError) {
        func fail(_ reason: String) -> StructuredOutputError { .schemaMismatch(path: path, reason: reason) }
        switch (kind, content) {
        case (.anyOf(let choices), _):
            for choice in choices where (try? choice.validate(content, path: path)) != nil { return }
            throw fail("matches none of the \(choices.count) allowed shapes")
        case (.object(let properties), .object(let members)):
            var seen: Set<String> = []
            for member in members {
                guard seen.insert(member.key).inserted else { throw fail("'\(member.key)' appears twice") }
                guard let property = properties.first(where: { $0.name == member.key }) else {
                    throw fail("'\(member.key)' is not a property of the schema")
                }
                try property.schema.validate(member.value, path: path + "." + member.key)
            }
            if let missing = properties.first(where: { $0.isRequired && !seen.contains($0.name) }) {
                throw fail("the required property '\(missing.name)' is missing")
            }
        case (.string(let values, let maxLength), .string(let text)):
            if let values, !values.contains(text) { throw fail("'\(text)' is not one of \(values)") }
            if let maxLength, text.count > maxLength { throw fail("longer than \(maxLength) characters") }
        case (.integer(let minimum, let maximum), .number(let text)):
            guard let value = Double(text), value == value.rounded() else { throw fail("\(text) is not an integer") }
            try Self.check(value, Double(minimum ?? .min), Double(maximum ?? .max), fail)
        case (.number(let minimum, let maximum), .number(let text)):
            guard let value = Double(text), value.isFinite else { throw fail("\(text) is not a finite number") }
            try Self.check(value, minimum ?? -.infinity, maximum ?? .infinity, fail)
        case (.boolean, .bool), (.null, .null): return
        case (.array(let items, let minItems, let maxItems), .array(let elements)):
            if elements.count < minItems { throw fail("\(elements.count) items, fewer than \(minItems)") }
            if let maxItems, elements.count > maxItems { throw fail("\(elements.count) items, more than \(maxItems)") }
            for (i, element) in elements.enumerated() { try items.validate(element, path: "\(path)[\(i)]") }
        default:
            throw fail("expected \(kind.typeName), found \(content.typeName)")
        }
    }

    private static func check(_ value: Double, _ minimum: Double, _ maximum: Double,
                              _ fail: (String) -> StructuredOutputError) throws(StructuredOutputError) {
        if value < minimum { throw fail("\(value) is below the minimum \(minimum)") }
        if value > maximum { throw fail("\(value) is above the maximum \(maximum)") }
    }

    /// Parses `text` and validates it: the JSON value, or why it is not a valid answer.
    public func parseValid(_ text: String) throws(StructuredOutputError) -> GeneratedContent {
        let content = try GeneratedContent(json: text)
        try validate(content)
        return content
    }
}

extension GenerationSchema.Kind {
    var typeName: String {
        switch self {
        case .object: "an object"
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .anyOf: "one of several shapes"
        }
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
