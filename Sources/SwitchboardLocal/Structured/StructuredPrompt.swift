import SwitchboardCore

/// What the model is told about the answer's shape, as FoundationModels does: the decoder enforces
/// the schema, but a model that knows the fields and their meaning fills them in far better.
public enum StructuredPrompt {
    /// The line appended to the user's turn, e.g. `Answer in JSON with person (string) and city (string).`
    public static func instructions(for schema: GenerationSchema) -> String {
        guard case .object(let properties) = schema.kind, !properties.isEmpty else {
            return "Answer in JSON: \(describe(schema))."
        }
        let fields = properties.map { field($0) }
        let list = fields.count == 1 ? fields[0] : fields.dropLast().joined(separator: ", ") + " and " + fields[fields.count - 1]
        return "Answer in JSON with \(list)."
    }

    private static func field(_ property: GenerationSchema.Property) -> String {
        var text = "\"\(property.name)\" (\(describe(property.schema))"
        if let description = property.schema.description { text += ": " + description }
        if !property.isRequired { text += ", optional" }
        return text + ")"
    }

    /// A short phrase for a schema: `string`, `one of "low", "high"`, `integer from 1 to 10`, `list of string`.
    static func describe(_ schema: GenerationSchema) -> String {
        switch schema.kind {
        case .string(let rules):
            if let values = rules.enumValues { "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ") }
            else if let format = rules.format { "string, \(format.rawValue)" }
            else if let pattern = rules.pattern { "string matching \(pattern)" }
            else { "string" }
        case .integer(let minimum, let maximum, let multipleOf):
            "integer" + range(minimum.map(String.init), maximum.map(String.init)) + (multipleOf.map { ", a multiple of \($0)" } ?? "")
        case .number(let minimum, let maximum): "number" + range(minimum.map { "\($0)" }, maximum.map { "\($0)" })
        case .boolean: "true or false"
        case .null: "null"
        case .array(let items, _, _): "list of " + describe(items)
        case .tuple(let prefix, _, _, _): "list of " + prefix.map(describe).joined(separator: ", ")
        case .dictionary(let values, _, _): "object mapping names to " + describe(values)
        case .constants(let values): values.count == 1 ? values[0].jsonText : "one of " + values.map(\.jsonText).joined(separator: ", ")
        case .reference(let name): "a " + (name.split(separator: "/").last.map(String.init) ?? name)
        case .open: "any value"
        case .object(let properties): "object with " + properties.map { "\"\($0.name)\"" }.joined(separator: ", ")
        case .anyOf(let choices): choices.map(describe).joined(separator: " or ")
        }
    }

    private static func range(_ low: String?, _ high: String?) -> String {
        switch (low, high) {
        case let (low?, high?): " from \(low) to \(high)"
        case let (low?, nil): " of at least \(low)"
        case let (nil, high?): " of at most \(high)"
        case (nil, nil): ""
        }
    }
}
