extension GenerationSchema {
    /// Keywords that only document a schema; import ignores them.
    static let annotationKeywords: Set<String> = ["$schema", "$id", "title", "description", "examples", "default",
                                                  "additionalProperties", "$comment", "format"]

    /// Imports a JSON Schema document. Supported: `type` (one or a list, `"null"` making it nullable),
    /// `properties`, `required`, `enum` (strings, or an all-string list without type), `maxLength`,
    /// `minimum`/`maximum`, `items`, `minItems`/`maxItems`, `anyOf`/`oneOf`, `description`.
    /// Anything else that constrains values (`$ref`, `pattern`, `allOf`, tuples, …) is an
    /// `unsupportedSchema` error naming where it is, rather than being silently dropped.
    public init(jsonSchema text: String) throws(StructuredOutputError) {
        let document: GeneratedContent
        do { document = try GeneratedContent(json: text) } catch { throw .invalidSchemaDocument("\(error)") }
        guard case .object = document else { throw .invalidSchemaDocument("the top level is not an object") }
        self = try Self.imported(document, path: "#")
    }

    /// Parsed with the package's own reader, which keeps the document's property order.
    static func imported(_ node: GeneratedContent, path: String) throws(StructuredOutputError) -> GenerationSchema {
        guard case .object(let members) = node else { throw .unsupportedSchema(path: path, reason: "a schema must be an object") }
        let known: Set<String> = ["type", "properties", "required", "enum", "maxLength", "minLength", "minimum", "maximum",
                                  "items", "minItems", "maxItems", "anyOf", "oneOf", "nullable"]
        if let unknown = members.map(\.key).first(where: { !known.contains($0) && !annotationKeywords.contains($0) }) {
            throw .unsupportedSchema(path: path + "/" + unknown, reason: "the keyword '\(unknown)' is not supported")
        }
        let description = node["description"]?.stringValue
        if let choices = (node["anyOf"] ?? node["oneOf"]) {
            guard case .array(let list) = choices, !list.isEmpty else {
                throw .unsatisfiableSchema(path: path, reason: "anyOf needs a non-empty list of schemas")
            }
            var schemas: [GenerationSchema] = []
            for (i, choice) in list.enumerated() { schemas.append(try imported(choice, path: "\(path)/anyOf/\(i)")) }
            return GenerationSchema(.anyOf(schemas), description: description)
        }
        var types: [String]
        switch node["type"] {
        case .string(let single): types = [single]
        case .array(let list) where list.allSatisfy({ $0.stringValue != nil }): types = list.compactMap(\.stringValue)
        case nil:
            guard node["enum"]?.stringList != nil else {
                throw .unsupportedSchema(path: path, reason: "a schema needs a type (or a list of string enum values)")
            }
            types = ["string"]
        default: throw .unsupportedSchema(path: path + "/type", reason: "type must be a string or a list of strings")
        }
        if node["nullable"] == .bool(true), !types.contains("null") { types.append("null") }
        var schemas: [GenerationSchema] = []
        for type in types { schemas.append(try importedType(type, node, path: path)) }
        guard schemas.count > 1 else { var only = schemas[0]; only.description = description; return only }
        return GenerationSchema(.anyOf(schemas), description: description)
    }

    private static func importedType(_ type: String, _ node: GeneratedContent, path: String) throws(StructuredOutputError) -> GenerationSchema {
        switch type {
        case "object":
            guard case .object(let properties) = node["properties"] ?? .object([]) else {
                throw .unsupportedSchema(path: path + "/properties", reason: "properties must be an object")
            }
            guard let required = (node["required"] ?? .array([])).stringList else {
                throw .unsupportedSchema(path: path + "/required", reason: "required must be a list of names")
            }
            if let missing = required.first(where: { name in !properties.contains { $0.key == name } }) {
                throw .unsatisfiableSchema(path: path + "/required", reason: "'\(missing)' is required but has no property schema")
            }
            // The document's property order is the order the model writes them in.
            var result: [Property] = []
            for (name, child) in properties {
                result.append(Property(name, try imported(child, path: "\(path)/properties/\(name)"), required: required.contains(name)))
            }
            return .object(result)
        case "string":
            if node["minLength"] != nil { throw .unsupportedSchema(path: path + "/minLength", reason: "minLength is not supported") }
            let values = node["enum"].map(\.stringList)
            if case .some(nil) = values { throw .unsupportedSchema(path: path + "/enum", reason: "only string enum values are supported") }
            if values??.isEmpty == true { throw .unsatisfiableSchema(path: path + "/enum", reason: "the enum is empty") }
            return .string(enum: values ?? nil, maxLength: try count(node["maxLength"], path: path + "/maxLength"))
        case "integer":
            let minimum = try bound(node["minimum"], path: path + "/minimum").map { clampedInt($0.rounded(.up)) }
            let maximum = try bound(node["maximum"], path: path + "/maximum").map { clampedInt($0.rounded(.down)) }
            if let minimum, let maximum, minimum > maximum { throw .unsatisfiableSchema(path: path, reason: "minimum is above maximum") }
            return .integer(minimum: minimum, maximum: maximum)
        case "number":
            let minimum = try bound(node["minimum"], path: path + "/minimum")
            let maximum = try bound(node["maximum"], path: path + "/maximum")
            if let minimum, let maximum, minimum > maximum { throw .unsatisfiableSchema(path: path, reason: "minimum is above maximum") }
            return .number(minimum: minimum, maximum: maximum)
        case "boolean": return .boolean()
        case "null": return .null
        case "array":
            guard let items = node["items"], case .object = items else {
                throw .unsupportedSchema(path: path + "/items", reason: "an array needs one items schema (tuples are not supported)")
            }
            let minItems = try count(node["minItems"], path: path + "/minItems") ?? 0
            let maxItems = try count(node["maxItems"], path: path + "/maxItems")
            if let maxItems, maxItems < minItems { throw .unsatisfiableSchema(path: path, reason: "maxItems is below minItems") }
            return .array(of: try imported(items, path: path + "/items"), minItems: minItems, maxItems: maxItems)
        default:
            throw .unsupportedSchema(path: path + "/type", reason: "unknown type '\(type)'")
        }
    }

    /// A finite whole Double as an Int, saturating instead of trapping.
    static func clampedInt(_ value: Double) -> Int {
        value >= 9.2e18 ? .max : value <= -9.2e18 ? .min : Int(value)
    }

    private static func count(_ value: GeneratedContent?, path: String) throws(StructuredOutputError) -> Int? {
        guard let value else { return nil }
        guard let number = value.numberValue, let int = Int(exactly: number), int >= 0 else {
            throw .unsupportedSchema(path: path, reason: "must be a non-negative integer")
        }
        return int
    }

    private static func bound(_ value: GeneratedContent?, path: String) throws(StructuredOutputError) -> Double? {
        guard let value else { return nil }
        guard let number = value.numberValue, number.isFinite else {
            throw .unsupportedSchema(path: path, reason: "must be a finite number")
        }
        return number
    }
}

extension GeneratedContent {
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The strings of an array made only of strings.
    var stringList: [String]? {
        guard case .array(let items) = self else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }
}
